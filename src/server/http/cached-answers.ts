// Answers cached in this process's memory between changes: the public reads that change rarely or
// once a tick, the session behind a token, and the caller's own info and balances (a change made
// through this process is heard before its commit returns, so a caller reads their own writes). A
// cached answer is used only while the change channel is live (db/changes.ts); its table's notice
// drops it; a safety TTL bounds what a missed notice could ever leave. Each answer is exactly what
// its database read gives.
import type { Changes } from '../db/changes.ts';
import { EVERYTHING } from '../db/changes.ts';
import type { ResultOf } from '../../api-contract/endpoint.ts';
import type { config, slides } from '../../api-contract/content.ts';
import type { balances, coinList, currencyRate } from '../../api-contract/markets.ts';
import type { optionProducts } from '../../api-contract/options.ts';
import type { userInfo } from '../../api-contract/account.ts';
import type { Caller } from '../domain/sessions.ts';
import type { HouseCaps } from '../domain/house-limits.ts';

/** Whatever a notice could not reach goes stale for this long at most. */
const PUBLIC_TTL_MS = 10_000;
const PER_USER_TTL_MS = 30_000;
/**
 * A session behind a token, 5 minutes (the step at which its use is written, domain/sessions.ts): a customer calling
 * every 10–30 s reaches each of two processes about every 30 s, so 30 s missed about half the time (the capacity
 * bench's most frequent statement at 10,000 customers: 14,753 session reads in 45 s, 9 % of all). A
 * session ended (a log-out, another device signed out, an idle or age limit, a closure) still ends at once everywhere:
 * its row's notice drops it; this bound is only for a notice lost while the channel says it is live.
 */
const SESSION_TTL_MS = 5 * 60_000;
/** Per kind; beyond it the oldest answers go (a process serves many users, memory is not unbounded). */
const MAX_ENTRIES = 100_000;
/** How long a process's own revocation keeps a user's session out of memory if its notice never comes (a rolled-back
 * write). */
const HOLD_MS = 2_000;

/**
 * The envelope of a cached answer (a public one, or a customer's own info and balances), serialised once per language
 * and then sent as this JSON text (handle.ts). Text, not a Buffer: Node writes a text body with its headers in one
 * write, a Buffer in a second one (a writev of two), which cost a cached call about a fifth of its throughput. The
 * text belongs to the answer object it was made from: a notice that drops the answer drops it with it, so it is never
 * older than the answer itself, and a customer's goes only to the calls that read that customer's answer.
 */
const serialised = new WeakMap<object, Map<string, string>>();

/**
 * The JSON text of `value`'s envelope in `locale` if `value` is a cached answer kept serialised (made on first use),
 * else undefined.
 */
export function cachedJson(value: unknown, locale: string, serialise: () => string): string | undefined {
  if (typeof value !== 'object' || value === null) return undefined;
  const byLocale = serialised.get(value);
  if (!byLocale) return undefined;
  let json = byLocale.get(locale);
  if (!json) byLocale.set(locale, (json = serialise()));
  return json;
}

interface Entry<T> {
  value: T;
  at: number;
  user: number | undefined;
}

/**
 * One kind of answer, by key. A read that started before a change it may not have seen is
 * answered but neither cached nor shared with later callers (`epoch`): a notice arriving while the
 * database answers wins.
 */
export class AnswerCache<T> {
  private entries = new Map<string, Entry<T>>();
  private byUser = new Map<number, Set<string>>();
  private held = new Map<number, number>();
  /** Reads under way, by key, and the epoch each started in. */
  private loading = new Map<string, { epoch: number; answer: Promise<T> }>();
  private epoch = 0;

  private readonly usable: () => boolean;
  private readonly ttlMs: number;
  /** Their envelopes are serialised once per language (cachedJson). */
  private readonly serialise: boolean;

  constructor(usable: () => boolean, ttlMs: number, serialise = false) {
    this.usable = usable;
    this.ttlMs = ttlMs;
    this.serialise = serialise;
  }

  /**
   * `userOf` names the user an answer belongs to (per-user notices drop it); null: do not keep it.
   * Callers that miss together share one database read, unless a change was announced after it started.
   */
  read(
    key: string,
    load: () => Promise<T>,
    userOf: (value: T) => number | undefined | null = () => undefined,
  ): Promise<T> {
    if (!this.usable()) return load();
    const now = performance.now();
    const hit = this.entries.get(key);
    if (hit && now - hit.at < this.ttlMs) return Promise.resolve(hit.value);
    const pending = this.loading.get(key);
    if (pending && pending.epoch === this.epoch) return pending.answer;
    const started = this.epoch;
    const answer = load().then((value) => {
      const user = userOf(value);
      if (user !== null && started === this.epoch && this.usable() && !this.isHeld(user))
        this.keep(key, value, user, now);
      return value;
    });
    this.loading.set(key, { epoch: started, answer });
    const settled = () => {
      if (this.loading.get(key)?.answer === answer) this.loading.delete(key);
    };
    answer.then(settled, settled);
    return answer;
  }

  /** The answer kept for `key` when it may be used now (the channel live, within its TTL), else undefined: for a
   * caller that can answer without waiting a turn of the event loop. */
  peek(key: string): T | undefined {
    if (!this.usable()) return undefined;
    const hit = this.entries.get(key);
    return hit && performance.now() - hit.at < this.ttlMs ? hit.value : undefined;
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
    if (this.serialise && typeof value === 'object' && value !== null) serialised.set(value, new Map());
    if (user === undefined) return;
    let keys = this.byUser.get(user);
    if (!keys) this.byUser.set(user, (keys = new Set()));
    keys.add(key);
  }
}

/** What each table's notice drops: public answers whole, per-user ones by the users named. */
export function cachedAnswers(changes: Changes | null) {
  const live = () => changes?.live() ?? false;
  const cache = {
    config: new AnswerCache<ResultOf<typeof config>>(live, PUBLIC_TTL_MS, true),
    slides: new AnswerCache<ResultOf<typeof slides>>(live, PUBLIC_TTL_MS, true),
    optionProducts: new AnswerCache<ResultOf<typeof optionProducts>>(live, PUBLIC_TTL_MS, true),
    coinList: new AnswerCache<ResultOf<typeof coinList>>(live, PUBLIC_TTL_MS, true),
    currencyRates: new AnswerCache<ResultOf<typeof currencyRate> | null>(live, PUBLIC_TTL_MS, true),
    /** The codes of the coins listed and active (domain/markets.ts listedCoinCodes), under the key ''. */
    listedCoins: new AnswerCache<ReadonlySet<string>>(live, PUBLIC_TTL_MS),
    /** The house's caps in force (domain/house-limits.ts houseCaps), under the key ''. */
    houseCaps: new AnswerCache<HouseCaps>(live, PUBLIC_TTL_MS),
    sessions: new AnswerCache<Caller | null>(live, SESSION_TTL_MS),
    userInfo: new AnswerCache<ResultOf<typeof userInfo>>(live, PER_USER_TTL_MS, true),
    balances: new AnswerCache<ResultOf<typeof balances>>(live, PER_USER_TTL_MS, true),
  };
  const byTable: Record<string, Pick<AnswerCache<unknown>, 'dropAll' | 'dropUsers'>[]> = {
    config_entries: [cache.config, cache.houseCaps],
    slides: [cache.slides],
    // The notice's and the slides' other languages (domain/content-languages.ts).
    content_translations: [cache.config, cache.slides],
    option_products: [cache.optionProducts],
    coins: [cache.coinList, cache.listedCoins],
    fiat_rates: [cache.currencyRates],
    sessions: [cache.sessions],
    // A session's answer carries its customer's idle limit.
    users: [cache.userInfo, cache.sessions],
    balances: [cache.balances],
  };
  const all = Object.values(cache);
  const stop = changes?.subscribe((notice) => {
    if (notice === EVERYTHING) return all.forEach((one) => one.dropAll());
    const [table, ids] = notice.split(':');
    for (const one of byTable[table!] ?? []) {
      if (ids) one.dropUsers(ids.split(',').map(Number));
      else one.dropAll();
    }
  });
  return { ...cache, stop: () => stop?.() };
}

export type CachedAnswers = ReturnType<typeof cachedAnswers>;
