// A contract order's type as the records name it (the orders, the trade history and its CSV, a receipt): one name
// each, the order form's buttons' words, so a stop's fill is never called a market one.
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { OrderType } from '../api-contract/contracts.ts';

/** The name of each order type, translated where it is shown (`i18n._`). */
export const ORDER_TYPE_NAMES: Record<OrderType, MessageDescriptor> = {
  limit: msg`Limit`,
  market: msg`Market`,
  stop_market: msg`Stop`,
  stop_limit: msg`Stop-limit`,
};
