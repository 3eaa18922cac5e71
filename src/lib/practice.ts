// The account the trading screens trade with: Real, or Practice (virtual USDT on the same prices and rules, see
// api-contract/practice.ts). The choice is kept on this device for each user who signs in here and is the same on every
// screen; absent, it is Real. The practice account's balances are asked for by the screens that show them.
import { useSnapshot } from 'valtio';
import { proxy, subscribe } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import type { UserInfo } from '../api-contract/account.ts';
import { practiceAccount, type Account, type PracticeAccount, type PracticeBalance } from '../api-contract/practice.ts';
import { api } from './api.ts';
import { session } from './session.ts';
import { persistedStore } from './storage.ts';

/** Each user's choice on this device, by user id; a user not in it trades with the real account. */
export const accountChoice = persistedStore('trading-account', { byUser: {} as Record<string, Account> });

type Choices = { readonly byUser: Readonly<Record<string, Account>> };

/** The account `user` trades with now (Real when no one is signed in). */
export function currentAccount(
  choices: Choices = accountChoice,
  user: Readonly<Pick<UserInfo, 'id'>> | null = session.user,
): Account {
  return (user && choices.byUser[String(user.id)]) || 'real';
}

/** Switches the signed-in user to `account`, on every screen; nobody signed in: nothing to switch. */
export function chooseAccount(account: Account): void {
  const user = session.user;
  if (!user) return;
  if (account === 'real') delete accountChoice.byUser[String(user.id)];
  else accountChoice.byUser[String(user.id)] = account;
}

/** The account the screen trades with, re-rendered when it changes. */
export function useAccount(): Account {
  const choices = useSnapshot(accountChoice);
  const { user } = useSnapshot(session);
  return currentAccount(choices, user);
}

/** What a trading call adds to its input: nothing for the real account (absent means real), else the account. */
export const accountField = (account: Account = currentAccount()): { account?: Account } =>
  account === 'real' ? {} : { account };

/** Calls `listener` whenever the account traded with changes (a switch, or another user signing in). */
export function onAccountChange(listener: (account: Account) => void): () => void {
  let last = currentAccount();
  const check = () => {
    const now = currentAccount();
    if (now === last) return;
    last = now;
    listener(now);
  };
  const stopChoice = subscribe(accountChoice, check);
  const stopSession = subscribe(session, check);
  return () => {
    stopChoice();
    stopSession();
  };
}

/** The signed-in user's practice account as the server last answered it (never kept apart from the offline cache). */
export const practice = proxy({ account: null as PracticeAccount | null });

let latestRequest = 0;

/**
 * Asks for the practice account (opened with its starting USDT on first use); a late answer of an older ask is dropped.
 */
export async function loadPractice(): Promise<void> {
  if (!session.token) return;
  const request = ++latestRequest;
  const token = session.token;
  const answer = await api(practiceAccount, undefined, { loading: false });
  if (request !== latestRequest || token !== session.token) return;
  practice.account = answer;
}

/** Takes an answer that carries the practice account (a reset's). */
export function notePractice(answer: PracticeAccount): void {
  latestRequest += 1;
  practice.account = answer;
}

/** The practice USDT that can be spent now, or null before the first answer. */
export const practiceUsdt = (account: { readonly balances: readonly Readonly<PracticeBalance>[] } | null) =>
  account ? (account.balances.find((balance) => balance.asset === 'USDT')?.available ?? '0') : null;

// Another session (logout, another user) must never see this account.
subscribeKey(session, 'token', () => {
  latestRequest += 1;
  practice.account = null;
});
