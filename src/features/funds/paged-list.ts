// One filtered, paged list of the money screens (recharge record, withdraw record, account
// details): page 1 replaces what is shown, "Load more" adds the next page, an answer that arrives
// after a newer request is dropped, and a new session starts empty.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import type { Paged } from '../../contract/envelope.ts';
import { errorText } from '../../lib/api.ts';
import { session } from '../../lib/session.ts';

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

export const hasMore = (list: { readonly lists: readonly unknown[]; readonly total: number }) => list.lists.length < list.total;

/** Asks the server for one page of one filter; `loading` says whether the mask shows. */
export type FetchPage<T, F extends string> = (filter: F, page: number, loading: boolean) => Promise<Paged<T>>;

export function pagedLists<T extends { id: number }, F extends string>(filters: readonly F[], fetchPage: FetchPage<T, F>) {
  const fresh = () => Object.fromEntries(filters.map((filter) => [filter, emptyList<T>()])) as Record<F, PagedList<T>>;
  const state = proxy({ filter: filters[0]!, lists: fresh() });
  const latest = Object.fromEntries(filters.map((filter) => [filter, 0])) as Record<F, number>;

  /** Page 1 replaces the list (a filter chosen, a page opened); `more` adds the next page. */
  async function load(filter: F, { more = false } = {}): Promise<void> {
    const list = state.lists[filter];
    const request = ++latest[filter];
    const page = more ? list.page + 1 : 1;
    try {
      const answer = await fetchPage(filter, page, !list.loaded && !more);
      if (request !== latest[filter]) return;
      const kept = more ? list.lists : [];
      // Entries added meanwhile push older ones to the next page: show each once.
      const known = new Set(kept.map((item) => item.id));
      list.lists = [...kept, ...answer.lists.filter((item) => !known.has(item.id))];
      list.page = page;
      list.total = answer.total;
      list.loaded = true;
      list.failure = null;
    } catch (error) {
      if (request !== latest[filter]) return;
      list.failure = errorText(error);
      throw error;
    }
  }

  /** Shows another filter and loads its first page. */
  function choose(filter: F): Promise<void> {
    state.filter = filter;
    return load(filter);
  }

  /** Forgets every list (a new order was made, another session): the next visit loads afresh. */
  function reset({ filter = false } = {}): void {
    for (const key of filters) latest[key] += 1;
    state.lists = fresh();
    if (filter) state.filter = filters[0]!;
  }

  // Another session (logout, another user) must never see these entries.
  subscribeKey(session, 'token', () => reset({ filter: true }));

  return { state, load, choose, reset };
}
