// Answers kept in this process's memory between changes: the public reads that change rarely or
// once a tick, the session behind a token, and the caller's own info and balances (a change made
// through this process is heard before its commit returns, so a caller reads their own writes). A kept answer is used only while the
// change channel is live (db/changes.ts); its table's notice drops it; a safety TTL bounds what a
// missed notice could ever leave. Each answer is exactly what its database read gives.
import type { Changes } from '../db/changes.ts';
import { EVERYTHING } from '../db/changes.ts';
import type { ResultOf } from '../../contract/endpoint.ts';
import type { config, slides } from '../../contract/content.ts';
import type { balances, coinList, currencyRate, optionProducts } from '../../contract/markets.ts';
import type { userInfo } from '../../contract/account.ts';
import type { Caller } from './context.ts';

/** Whatever a notice could not reach goes stale for this long at most. */
const PUBLIC_TTL_MS = 10_000;
const PER_USER_TTL_MS = 30_000;
/** Per kind; beyond it the oldest answers go (a process serves many users, memory is not unbounded). */
const MAX_ENTRIES = 100_000;
/** How long a process's own revocation keeps a user's session out of memory if its notice never comes (a rolled-back write). */
const HOLD_MS = 2_000;

interface Entry<T> {
  value: T;
  at: number;
  user: number | undefined;
}

/**
 * One kind of answer, by key. A read that started before a change it may not have seen is
 * answered but not kept (`epoch`): a notice arriving while the database answers wins.
 */
export class Kept<T> {
  private entries = new Map<string, Entry<T>>();
  private byUser = new Map<number, Set<string>>();
  private held = new Map<number, number>();
  private epoch = 0;

  constructor(
    private readonly usable: () => boolean,
    private readonly ttlMs: number,
  ) {}

  /** `userOf` names the user an answer belongs to (per-user notices drop it); null: do not keep it. */
  async read(key: string, load: () => Promise<T>, userOf: (value: T) => number | undefined | null = () => undefined): Promise<T> {
    if (!this.usable()) return load();
    const now = performance.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return hit.value;
    const started = this.epoch;
    const value = await load();
    const user = userOf(value);
    if (user !== null && started === this.epoch && this.usable() && !this.isHeld(user)) this.keep(key, value, user, now);
    return value;
  }

  dropAll() {
    this.epoch++;
    this.entries.clear();
    this.byUser.clear();
    this.held.clear();
  }

  dropUsers(users: number[]) {
    this.epoch++;
    for (const user of users) {
      this.held.delete(user);
      for (const key of this.byUser.get(user) ?? []) this.entries.delete(key);
      this.byUser.delete(user);
    }
  }

  /** Drops a user's answers and keeps none until their notice arrives (or HOLD_MS passes). */
  hold(user: number) {
    this.dropUsers([user]);
    this.held.set(user, performance.now() + HOLD_MS);
  }

  private isHeld(user: number | undefined) {
    if (user === undefined) return false;
    const until = this.held.get(user);
    if (until === undefined) return false;
    if (performance.now() < until) return true;
    this.held.delete(user);
    return false;
  }

  private keep(key: string, value: T, user: number | undefined, at: number) {
    this.entries.delete(key);
    if (this.entries.size >= MAX_ENTRIES) {
      const [oldest, entry] = this.entries.entries().next().value!;
      this.entries.delete(oldest);
      if (entry.user !== undefined) this.byUser.get(entry.user)?.delete(oldest);
    }
    this.entries.set(key, { value, at, user });
    if (user === undefined) return;
    let keys = this.byUser.get(user);
    if (!keys) this.byUser.set(user, (keys = new Set()));
    keys.add(key);
  }
}

/** What each table's notice drops: public answers whole, per-user ones by the users named. */
export function keptAnswers(changes: Changes | undefined) {
  const live = () => changes?.live() ?? false;
  const kept = {
    config: new Kept<ResultOf<typeof config>>(live, PUBLIC_TTL_MS),
    slides: new Kept<ResultOf<typeof slides>>(live, PUBLIC_TTL_MS),
    optionProducts: new Kept<ResultOf<typeof optionProducts>>(live, PUBLIC_TTL_MS),
    coinList: new Kept<ResultOf<typeof coinList>>(live, PUBLIC_TTL_MS),
    currencyRates: new Kept<ResultOf<typeof currencyRate> | null>(live, PUBLIC_TTL_MS),
    sessions: new Kept<Caller | null>(live, PER_USER_TTL_MS),
    userInfo: new Kept<ResultOf<typeof userInfo>>(live, PER_USER_TTL_MS),
    balances: new Kept<ResultOf<typeof balances>>(live, PER_USER_TTL_MS),
  };
  const byTable: Record<string, Pick<Kept<unknown>, 'dropAll' | 'dropUsers'>[]> = {
    config_entries: [kept.config],
    slides: [kept.slides],
    option_products: [kept.optionProducts],
    coins: [kept.coinList],
    fiat_rates: [kept.currencyRates],
    sessions: [kept.sessions],
    users: [kept.userInfo],
    balances: [kept.balances],
  };
  const all = Object.values(kept);
  const stop = changes?.subscribe((notice) => {
    if (notice === EVERYTHING) return all.forEach((one) => one.dropAll());
    const [table, ids] = notice.split(':');
    for (const one of byTable[table!] ?? []) {
      if (ids) one.dropUsers(ids.split(',').map(Number));
      else one.dropAll();
    }
  });
  return { ...kept, stop: () => stop?.() };
}

export type KeptAnswers = ReturnType<typeof keptAnswers>;
