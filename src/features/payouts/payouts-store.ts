// Where withdrawals go: the user's bank cards and wallet addresses — the lists, adding
// (checked against the API contract first) and deleting; plus where to return after adding one.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import * as v from 'valibot';
import { i18n, type MessageDescriptor } from '@lingui/core';
import {
  BankCardInput,
  addBankCard,
  bankCards,
  deleteBankCard,
  deleteWallet,
  editPayeeLabel,
  PayeeLabelInput,
  usableBy,
  wallets,
  type BankCard,
  type Wallet,
} from '../../api-contract/payouts.ts';
import { MAX_BANK_CARDS, MAX_WALLETS, type BankCode } from '../../api-contract/constants.ts';
import { AUTH_ROUTE_PREFIX, ROUTES } from '../../api-contract/routes.ts';
import { texts } from '../../api-contract/texts.ts';
import { api, errorText } from '../../lib/api.ts';
import { goBack, navigate, navigationHistory, pathOf } from '../../lib/navigation.ts';
import { session } from '../../lib/session.ts';
import { firstError } from '../../lib/validate.ts';

export interface PayeeList<T> {
  lists: T[];
  loaded: boolean;
  /** The last load failed: what it said. */
  failure: string | null;
  /** Per payee id: the device time (ms) from which withdrawals may go to it (its cooling-off, counted from when it
   * arrived). */
  usableBy: Record<number, number>;
}
const emptyList = <T>(): PayeeList<T> => ({ lists: [], loaded: false, failure: null, usableBy: {} });

/** Notes when each payee that just arrived becomes usable, on this device's clock. */
function noteUsable(
  list: PayeeList<BankCard | Wallet>,
  arrived: readonly (BankCard | Wallet)[],
  receivedAt = Date.now(),
): void {
  for (const payee of arrived) list.usableBy[payee.id] = usableBy(payee, receivedAt);
}

export const payoutsState = proxy({
  cards: emptyList<BankCard>(),
  wallets: emptyList<Wallet>(),
});

let latestCards = 0;
let latestWallets = 0;

export async function loadBankCards(): Promise<void> {
  const request = ++latestCards;
  const list = payoutsState.cards;
  try {
    const { lists } = await api(bankCards, undefined, { loading: !list.loaded });
    if (request !== latestCards) return;
    Object.assign(list, { lists, loaded: true, failure: null, usableBy: {} });
    noteUsable(list, lists);
  } catch (error) {
    if (request !== latestCards) return;
    list.failure = errorText(error);
    throw error;
  }
}

export async function loadWallets(): Promise<void> {
  const request = ++latestWallets;
  const list = payoutsState.wallets;
  try {
    const { lists } = await api(wallets, undefined, { loading: !list.loaded });
    if (request !== latestWallets) return;
    Object.assign(list, { lists, loaded: true, failure: null, usableBy: {} });
    noteUsable(list, lists);
  } catch (error) {
    if (request !== latestWallets) return;
    list.failure = errorText(error);
    throw error;
  }
}

/** A text with its {0}, translated. Named first: Lingui's extractor cannot read a spread inside i18n._(). */
function textWith(text: MessageDescriptor, value: number): string {
  const described = { ...text, values: { 0: value } };
  return i18n._(described);
}
export const bankCardLimitText = () => textWith(texts.bankCardLimit, MAX_BANK_CARDS);
export const walletLimitText = () => textWith(texts.walletLimit, MAX_WALLETS);

// ---- Bank cards -------------------------------------------------------------------------------

/** The add form as typed: the bank is not chosen yet at first. */
export type BankCardForm = Omit<v.InferInput<typeof BankCardInput>, 'bank_code'> & { bank_code: BankCode | '' };
export const emptyBankCardForm = (): BankCardForm => ({
  real_name: '',
  ifsc: '',
  bank_code: '',
  bank_number: '',
  phone: '',
  email: '',
  label: '',
});

/** The first rule the card breaks (translated), or null. Every field is required, the e-mail included. */
export function bankCardProblem(form: BankCardForm, cardsBound: number): string | null {
  if (cardsBound >= MAX_BANK_CARDS) return bankCardLimitText();
  return firstError(BankCardInput, form);
}

/** Binds the card; it joins the list at once (the server keeps only its last four digits). */
export async function addCard(form: BankCardForm): Promise<BankCard> {
  const card = await api(addBankCard, v.parse(BankCardInput, form));
  const list = payoutsState.cards;
  list.lists = [...list.lists.filter((known) => known.id !== card.id), card];
  noteUsable(list, [card]);
  return card;
}

export async function deleteCard(id: number): Promise<void> {
  await api(deleteBankCard, { id: String(id) });
  payoutsState.cards.lists = payoutsState.cards.lists.filter((card) => card.id !== id);
}

// ---- Wallets ----------------------------------------------------------------------------------

/** Puts a wallet just added at the top of the list, noting when it becomes usable. */
export function noteAddedWallet(wallet: Wallet): void {
  const list = payoutsState.wallets;
  list.lists = [wallet, ...list.lists.filter((known) => known.id !== wallet.id)];
  noteUsable(list, [wallet]);
}

export async function removeWallet(id: number): Promise<void> {
  await api(deleteWallet, { id: String(id) });
  payoutsState.wallets.lists = payoutsState.wallets.lists.filter((wallet) => wallet.id !== id);
}

// ---- Labels -----------------------------------------------------------------------------------

export type PayeeLabelForm = v.InferInput<typeof PayeeLabelInput>;

/** The first rule the label breaks (translated), or null. */
export const payeeLabelProblem = (form: PayeeLabelForm) => firstError(PayeeLabelInput, form);

/** Renames a bank card (its label) or a wallet (its alias); the list shows it at once. */
export async function renamePayee(form: PayeeLabelForm): Promise<void> {
  const checked = v.parse(PayeeLabelInput, form);
  await api(editPayeeLabel, checked);
  const id = Number(checked.id);
  if (checked.kind === 'bank') {
    const card = payoutsState.cards.lists.find((known) => known.id === id);
    if (card) card.label = checked.label;
  } else {
    const wallet = payoutsState.wallets.lists.find((known) => known.id === id);
    if (wallet) wallet.alias = checked.label;
  }
}

// ---- Shown and copied -------------------------------------------------------------------------

// ---- Where to go after adding -----------------------------------------------------------------

/**
 * The page to return to once a card or wallet is added: the `from` query route (our own pages
 * only, never the login pages), else the withdraw page when it is the one just before; else null.
 */
export function returnRouteAfterAdding(search: string, history: readonly string[]): string | null {
  const from = new URLSearchParams(search).get('from');
  if (from && from.startsWith('/pages/') && !from.startsWith(AUTH_ROUTE_PREFIX)) return from;
  const previous = history.at(-2);
  return previous && pathOf(previous) === ROUTES.withdraw ? previous : null;
}

/** Leaves this page for `route` without leaving this page in the history behind. */
export function returnTo(route: string): void {
  const entries = navigationHistory.entries;
  if (entries.at(-2) === route) return goBack(route);
  navigationHistory.entries = entries.slice(0, -1);
  navigate(route, { replace: true });
}

/** A link that keeps the `from` route: the list hands it on to the add page. */
export const withFrom = (route: string, search: string) => {
  const from = new URLSearchParams(search).get('from');
  return from ? `${route}?from=${encodeURIComponent(from)}` : route;
};

// Another session (logout, another user) must never see these cards and wallets.
subscribeKey(session, 'token', () => {
  latestCards += 1;
  latestWallets += 1;
  Object.assign(payoutsState, { cards: emptyList<BankCard>(), wallets: emptyList<Wallet>() });
});
