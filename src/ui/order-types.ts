// A contract order's type as the records name it (the orders, the trade history and its CSV, a receipt): one name
// each, the order form's buttons' words, so a stop's fill is never called a market one; and the name of a small
// balance's conversion, which is a market sell the customer asked for as a conversion, never one they placed.
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

/** What a small balance's conversion to USDT (an order marked dust_conversion) is called beside its side and type, in
 * every record that shows the order. */
export const DUST_CONVERSION_NAME: MessageDescriptor = msg`Small balance conversion`;
