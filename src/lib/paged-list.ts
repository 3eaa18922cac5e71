// Paged lists (recharge and withdraw records, account details, point history): page 1 replaces
// what is shown, "Load more" adds the next page, an answer that arrives after a newer request is
// dropped, and a new session starts empty.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import type { Paged } from '../contract/envelope.ts';
import { errorText } from './api.ts';
import { session } from './session.ts';

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

export const hasMore = (list: { readonly lists: readonly unknown[]; readonly total: number }) =>
  list.lists.length < list.total;

/**
 * Loads pages into one list (`list()` names it, so it may live in any store). `accepted` sees each
 * answer that is shown (not one overtaken by a newer request); `cancel` drops answers on their way.
 */
export function pageLoader<T extends { id: number }, A extends Paged<T>>(
  list: () => PagedList<T>,
  fetchPage: (page: number, loading: boolean) => Promise<A>,
  accepted: (answer: A) => void = () => {},
) {
  let latest = 0;
  /** Page 1 replaces the list; `more` adds the next page. */
  async function load({ more = false } = {}): Promise<void> {
    const shown = list();
    const request = ++latest;
    const page = more ? shown.page + 1 : 1;
    try {
      const answer = await fetchPage(page, !shown.loaded && !more);
      if (request !== latest) return;
      const target = list();
      const kept = more ? target.lists : [];
      // Entries added meanwhile push older ones to the next page: show each once.
      const known = new Set(kept.map((item) => item.id));
      target.lists = [...kept, ...answer.lists.filter((item) => !known.has(item.id))];
      target.page = page;
      target.total = answer.total;
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

/** Asks the server for one page of one filter; `loading` says whether the mask shows. */
export type FetchPage<T, F extends string> = (filter: F, page: number, loading: boolean) => Promise<Paged<T>>;

/** One paged list per filter, and the filter shown. */
export function pagedLists<T extends { id: number }, F extends string>(
  filters: readonly F[],
  fetchPage: FetchPage<T, F>,
) {
  const fresh = () => Object.fromEntries(filters.map((filter) => [filter, emptyList<T>()])) as Record<F, PagedList<T>>;
  const state = proxy({ filter: filters[0]!, lists: fresh() });
  const loaders = Object.fromEntries(
    filters.map((filter) => [
      filter,
      pageLoader(
        () => state.lists[filter],
        (page, loading) => fetchPage(filter, page, loading),
      ),
    ]),
  ) as Record<F, ReturnType<typeof pageLoader<T, Paged<T>>>>;

  /** Page 1 replaces the list (a filter chosen, a page opened); `more` adds the next page. */
  const load = (filter: F, options: { more?: boolean } = {}) => loaders[filter].load(options);

  /** Shows another filter and loads its first page. */
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
