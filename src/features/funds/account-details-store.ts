// Account details (/pages/accountDetails/accountDetails, /users/account/lists): every move of the available
// balance, grouped by what caused it, newest first, a page at a time.
import { msg } from '@lingui/core/macro';
import { i18n, type MessageDescriptor } from '@lingui/core';
import { ACCOUNT_FILTERS, accountEntries, type AccountFilter } from '../../api-contract/funds.ts';
import { assetName, ledgerKindName } from '../../api-contract/ledger-kinds.ts';
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
  // Points redeemed for USDT: the points themselves have their own history (Points record), not the money moves here.
  points: msg`Points redeemed`,
  other: msg`Other`,
};

/** What an entry is, in the app's language (the one list of names: api-contract/ledger-kinds.ts). */
export const kindLabel = (kind: string): string => ledgerKindName(kind, (text) => i18n._(text));

/** An entry's asset in the app's language: a coin's code, or the name of one of the ledger's own (liquidity…). */
export const assetLabel = (asset: string): string => assetName(asset, (text) => i18n._(text));
