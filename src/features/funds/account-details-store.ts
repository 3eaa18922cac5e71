// Account details (§2 accountDetails, §7 /users/account/lists): every move of the available
// balance, grouped by what caused it, newest first, a page at a time.
import { msg } from '@lingui/core/macro';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { ACCOUNT_FILTERS, accountEntries, type AccountFilter } from '../../contract/funds.ts';
import { api } from '../../lib/api.ts';
import { cursorLists } from './account-details-list.ts';

/** Paged by a cursor: "Load more" follows on from the last entry shown and brings what arrived meanwhile to the top. */
export const accountDetails = cursorLists<AccountFilter>(ACCOUNT_FILTERS, (setup, before, loading) =>
  api(accountEntries, before === undefined ? { setup } : { setup, before }, { loading }),
);

export const FILTER_LABELS: Record<AccountFilter, MessageDescriptor> = {
  all: msg`All`,
  recharge: msg`Recharge`,
  withdraw: msg`Withdrawal`,
  option: msg`Options`,
  contract: msg`Contracts`,
  points: msg`Points`,
  other: msg`Other`,
};

const KIND_LABELS: Record<string, MessageDescriptor> = {
  recharge: msg`Recharge`,
  withdraw_freeze: msg`Withdrawal`,
  withdraw_return: msg`Withdrawal returned`,
  option_stake: msg`Option purchase`,
  option_payout: msg`Option settlement`,
  contract_freeze: msg`Contract order placed`,
  contract_trade: msg`Contract order filled`,
  contract_cancel: msg`Contract order revoked`,
  contract_void: msg`Contract order void`,
  points_redeem: msg`Points redeemed`,
  welfare: msg`Welfare reward`,
  demo_grant: msg`Demo funds`,
  test_credit: msg`Test credit`,
};

/** What an entry is, in the app's language; a kind this app does not know yet shows as it is. */
export function kindLabel(kind: string): string {
  const label = Object.hasOwn(KIND_LABELS, kind) ? KIND_LABELS[kind] : undefined;
  return label ? i18n._(label) : kind;
}
