// Paged lists (records, orders, messages, point history, draws). A list pages by the server's cursor: "Load more"
// continues after the last row shown (nothing repeats, nothing is skipped when rows arrive meanwhile) and goes away
// when the answer says the list has ended (`next` null). Opening a list again reads its head: what arrived meanwhile
// shows on top, the pages already read stay. An answer that arrives after a newer request is dropped; a new session
// starts empty.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import type { CursorPage } from '../api-contract/envelope.ts';
import { errorText } from './api.ts';
import { session } from './session.ts';

/** A list paged by cursor, as a store holds it. */
export interface CursorList<T> {
  lists: T[];
  /** Where "Load more" continues (the last answer's `next`); null once the list has ended, and before the first load.
   */
  next: string | null;
  loaded: boolean;
  /** What the last load said when it failed. */
  failure: string | null;
}

export const emptyCursorList = <T>(): CursorList<T> => ({ lists: [], next: null, loaded: false, failure: null });

/**
 * Where a list's new or changed rows land. 'head': the list is newest first and its rows never change, so a refresh of
 * its head puts arrivals on top and keeps the pages read. 'anywhere': the list is in another order (oldest first,
 * soonest to end), or a row shown may change or join it below its head (a recharge reviewed, an order filled or
 * settled after newer ones were placed), so a refresh reads it again from its head, as deep as it was shown
 * (readToDepth).
 */
export type Arrivals = 'head' | 'anywhere';

/**
 * The list after its head was read again: the head page on top, then the rows shown that follow the head's last row (a
 * row shown above it that the head lacks has left the list). When the head does not reach a row shown (more arrived
 * than a page holds), or arrivals may land anywhere, the head page alone, so no gap is ever shown.
 */
export function withHead<T extends { id: number }>(
  shown: Readonly<Pick<CursorList<T>, 'lists' | 'next' | 'loaded'>>,
  head: CursorPage<T>,
  arrivals: Arrivals = 'head',
): Pick<CursorList<T>, 'lists' | 'next'> {
  const last = head.lists.at(-1);
  const at = last && shown.loaded && arrivals === 'head' ? shown.lists.findIndex((row) => row.id === last.id) : -1;
  if (head.next === null || at < 0) return { lists: [...head.lists], next: head.next };
  const inHead = new Set(head.lists.map((row) => row.id));
  const rest = shown.lists.slice(at + 1).filter((row) => !inHead.has(row.id));
  return { lists: [...head.lists, ...rest], next: shown.next };
}

/** The list after its next page: the rows not shown yet appended, and where the page after it starts. */
export function withPage<T extends { id: number }>(
  shown: Readonly<Pick<CursorList<T>, 'lists'>>,
  page: CursorPage<T>,
): Pick<CursorList<T>, 'lists' | 'next'> {
  const known = new Set(shown.lists.map((row) => row.id));
  return { lists: [...shown.lists, ...page.lists.filter((row) => !known.has(row.id))], next: page.next };
}

/**
 * A list's head read again as deep as `depth` rows (as many as were shown): the head page, then the pages after it
 * until that many rows are read or the list ends, as one answer whose `next` continues after the last row read. A list
 * shown one page deep costs one request, as before; each further page shown costs one more.
 */
export async function readToDepth<T extends { id: number }, A extends CursorPage<T>>(
  fetchPage: (cursor: string) => Promise<A>,
  depth: number,
): Promise<A> {
  const head = await fetchPage('');
  let read: Pick<CursorPage<T>, 'lists' | 'next'> = { lists: [...head.lists], next: head.next };
  while (read.next !== null && read.lists.length < depth) {
    const next = withPage(read, await fetchPage(read.next));
    // A page that brings no row not read yet ends the reading: an answer that repeats itself never loops.
    if (next.lists.length === read.lists.length) return { ...head, ...next };
    read = next;
  }
  return { ...head, ...read };
}

/** Whether "Load more" shows: a cursor list until its last page; a list paged by number until it holds its total. */
export const hasMore = (
  list: { readonly lists: readonly unknown[] } & ({ readonly next: string | null } | { readonly total: number }),
) => ('next' in list ? list.next !== null : list.lists.length < list.total);

/**
 * Loads one list by cursor (`list()` names it, so it may live in any store). `fetchPage(cursor, loading)` asks for the
 * page after `cursor` ('' for the head); `accepted` sees each answer that is shown (not one overtaken by a newer
 * request); `cancel` drops answers on their way.
 */
export function cursorLoader<T extends { id: number }, A extends CursorPage<T>>(
  list: () => CursorList<T>,
  fetchPage: (cursor: string, loading: boolean) => Promise<A>,
  { accepted = () => {}, arrivals = 'head' }: { accepted?: (answer: A) => void; arrivals?: Arrivals } = {},
) {
  let latest = 0;
  /** Reads the head (opening the list, coming back to it); `more` reads the page after the rows shown. */
  async function load({ more = false } = {}): Promise<void> {
    const shown = list();
    const cursor = more ? shown.next : '';
    if (cursor === null) return;
    const request = ++latest;
    try {
      const deep = !more && shown.loaded && arrivals === 'anywhere';
      const answer = deep
        ? await readToDepth((next) => fetchPage(next, false), shown.lists.length)
        : await fetchPage(cursor, !shown.loaded && !more);
      if (request !== latest) return;
      const target = list();
      Object.assign(target, more ? withPage(target, answer) : withHead(target, answer, arrivals));
      target.loaded = true;
      target.failure = null;
      accepted(answer);
    } catch (error) {
      if (request !== latest) return;
      list().failure = errorText(error);
      throw error;
    }
  }
  return { load, cancel: () => void (latest += 1) };
}

/** Asks the server for the page after `cursor` ('' for the head) of one filter; `loading` says whether the mask
 * shows. */
export type FetchCursorPage<T, F extends string> = (
  filter: F,
  cursor: string,
  loading: boolean,
) => Promise<CursorPage<T>>;

/** One list per filter, paged by cursor, and the filter shown; `arrivals` tells where each filter's new rows land. */
export function cursorLists<T extends { id: number }, F extends string>(
  filters: readonly F[],
  fetchPage: FetchCursorPage<T, F>,
  { arrivals = () => 'head' }: { arrivals?: (filter: F) => Arrivals } = {},
) {
  const fresh = () =>
    Object.fromEntries(filters.map((filter) => [filter, emptyCursorList<T>()])) as Record<F, CursorList<T>>;
  const state = proxy({ filter: filters[0]!, lists: fresh() });
  const loaders = Object.fromEntries(
    filters.map((filter) => [
      filter,
      cursorLoader(
        () => state.lists[filter],
        (cursor, loading) => fetchPage(filter, cursor, loading),
        { arrivals: arrivals(filter) },
      ),
    ]),
  ) as Record<F, ReturnType<typeof cursorLoader<T, CursorPage<T>>>>;

  /** Reads the head of a filter's list (a filter chosen, a page opened); `more` reads its next page. */
  const load = (filter: F, options: { more?: boolean } = {}) => loaders[filter].load(options);

  /** Shows another filter and reads its head. */
  function choose(filter: F): Promise<void> {
    state.filter = filter;
    return load(filter);
  }

  /** Forgets every list (a new order was made, another session): the next visit loads afresh. */
  function reset({ filter = false } = {}): void {
    for (const key of filters) loaders[key].cancel();
    state.lists = fresh();
    if (filter) state.filter = filters[0]!;
  }

  // Another session (logout, another user) must never see these entries.
  subscribeKey(session, 'token', () => reset({ filter: true }));

  return { state, load, choose, reset };
}

// ---- The shape of a list paged by number: account details hold their entries in it (features/funds) -------------

/** A list paged by number (offset); rows added meanwhile shift its pages. */
export interface PagedList<T> {
  lists: T[];
  /** The last page received (0 before the first). */
  page: number;
  total: number;
  loaded: boolean;
  /** What the last load said when it failed. */
  failure: string | null;
}

export const emptyList = <T>(): PagedList<T> => ({ lists: [], page: 0, total: 0, loaded: false, failure: null });
