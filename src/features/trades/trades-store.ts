// The trade history's state: the filter (pair, side, period of days on this device's calendar), the fills of the
// period a page at a time by cursor, and the realised results of the period. A new filter forgets the fills shown;
// an answer that arrives after a newer request is dropped; another session starts empty.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { contractPairs, type OrderSide } from '../../api-contract/contracts.ts';
import { tradeFills, tradeResults, type TradeFill, type TradeResults } from '../../api-contract/trades.ts';
import { api, errorText } from '../../lib/api.ts';
import { cursorLoader, emptyCursorList } from '../../lib/paged-list.ts';
import { session } from '../../lib/session.ts';

/** This device's time zone: the period's days run from its midnights, and the file's times are its wall clock. */
export const deviceTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** A day on this device's calendar, "2026-11-27". */
export const localDay = (at: Date) =>
  `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;

const monthStart = () => {
  const today = new Date();
  return localDay(new Date(today.getFullYear(), today.getMonth(), 1));
};

/** What the history shows: one pair or all (''), one side or both (''), the first and last day. */
export const tradesFilter = proxy({
  code: '',
  side: '' as '' | OrderSide,
  from: monthStart(),
  to: localDay(new Date()),
});

export const tradesState = proxy({
  fills: emptyCursorList<TradeFill>(),
  results: null as TradeResults | null,
  resultsFailure: null as string | null,
  /** The pairs' coins, for the filter. */
  pairs: [] as string[],
});

/** The period part of every call: the filter's days in this device's zone. */
export const periodInput = () => ({ from: tradesFilter.from, to: tradesFilter.to, tz: deviceTimeZone() });

/** The fills call's input for the filter shown, after `cursor`. */
export const fillsInput = (cursor: string) => ({
  code: tradesFilter.code,
  side: tradesFilter.side,
  ...periodInput(),
  cursor,
});

const fills = cursorLoader(
  () => tradesState.fills,
  (cursor, loading) => api(tradeFills, fillsInput(cursor), { loading }),
  { arrivals: 'anywhere' },
);

let latestResults = 0;
async function loadResults(): Promise<void> {
  const request = ++latestResults;
  try {
    const answer = await api(tradeResults, { code: tradesFilter.code, ...periodInput() }, { loading: false });
    if (request !== latestResults) return;
    Object.assign(tradesState, { results: answer, resultsFailure: null });
  } catch (error) {
    if (request !== latestResults) return;
    tradesState.resultsFailure = errorText(error);
  }
}

/** Reads the fills' head and the results for the filter shown (a failure shows in the list, with a retry). */
export function loadTrades(): void {
  fills.load().catch(() => undefined);
  void loadResults();
}

/** The next page of fills. */
export const loadMoreFills = () => fills.load({ more: true });

/** Shows another filter: the fills shown are forgotten, the new ones and their results read. */
export function chooseFilter(next: Partial<typeof tradesFilter>): void {
  Object.assign(tradesFilter, next);
  fills.cancel();
  tradesState.fills = emptyCursorList<TradeFill>();
  tradesState.results = null;
  loadTrades();
}

/** The pairs for the filter, once. */
export function loadPairCodes(): void {
  if (tradesState.pairs.length) return;
  api(contractPairs, undefined, { loading: false }).then(
    ({ lists }) => void (tradesState.pairs = lists.map((pair) => pair.code)),
    () => undefined,
  );
}

/** Every fill of the filter shown, page after page (for the file). */
export async function allFills(): Promise<TradeFill[]> {
  const all: TradeFill[] = [];
  let cursor = '';
  do {
    const page = await api(tradeFills, fillsInput(cursor));
    all.push(...page.lists);
    cursor = page.next ?? '';
  } while (cursor !== '');
  return all;
}

// Another session (logout, another user) must never see these fills.
subscribeKey(session, 'token', () => {
  fills.cancel();
  latestResults += 1;
  Object.assign(tradesState, { fills: emptyCursorList<TradeFill>(), results: null, resultsFailure: null });
});
