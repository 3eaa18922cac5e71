// The account details' pages, by a cursor: "Load more" asks for the entries that took effect before the
// last one shown (the server's `next`), so entries added meanwhile never shift a page, and the list ends
// where it ends (no `next`: the button goes). The same tap asks for the newest page again and puts what
// arrived meanwhile at the top, where a newest-first list has it; a first page that no longer meets the
// shown one (more new entries than a page) starts the list afresh from the newest. An answer overtaken by
// a newer request is dropped; another session starts empty. Its state is the shape every paged list shows.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import type { AccountEntriesPage, AccountEntry } from '../../api-contract/funds.ts';
import { errorText } from '../../lib/api.ts';
import { emptyList, type PagedList } from '../../lib/paged-list.ts';
import { session } from '../../lib/session.ts';

/** A list paged by cursor: `next` is where the following page starts, null once the last is shown. */
export interface CursorList extends PagedList<AccountEntry> {
  next: string | null;
}

/** Asks for one page of one filter: the newest (no `before`) or the one after a cursor. */
export type FetchEntries<F extends string> = (
  filter: F,
  before: string | undefined,
  loading: boolean,
) => Promise<AccountEntriesPage>;

const emptyCursorList = (): CursorList => ({ ...emptyList<AccountEntry>(), next: null });

/**
 * What the list counts as there: those shown, and one more while the server names a next page (the shared list view
 * shows "Load more" while the count is above what is shown).
 */
const counted = (list: CursorList) => list.lists.length + (list.next === null ? 0 : 1);

/** The newest page joined to what is shown: what is new on top, or the newest page alone when they do not meet. */
export function joinHead(shown: readonly AccountEntry[], head: AccountEntriesPage): AccountEntry[] | null {
  const known = new Set(shown.map((entry) => entry.id));
  const meets = shown.length === 0 || head.next === null || head.lists.some((entry) => known.has(entry.id));
  if (!meets) return null;
  return [...head.lists.filter((entry) => !known.has(entry.id)), ...shown];
}

/** One cursor-paged list per filter, and the filter shown: `load`, `choose` and `reset` as every paged list has. */
export function cursorLists<F extends string>(filters: readonly F[], fetchPage: FetchEntries<F>) {
  const fresh = () => Object.fromEntries(filters.map((filter) => [filter, emptyCursorList()])) as Record<F, CursorList>;
  const state = proxy({ filter: filters[0]!, lists: fresh() });
  const latest = Object.fromEntries(filters.map((filter) => [filter, 0])) as Record<F, number>;

  /** The newest page replaces the list (a filter chosen, the page opened); `more` adds the next page and the head. */
  async function load(filter: F, { more = false }: { more?: boolean } = {}): Promise<void> {
    const request = ++latest[filter];
    const shown = state.lists[filter];
    try {
      if (!more || shown.next === null) {
        const head = await fetchPage(filter, undefined, !shown.loaded);
        if (request !== latest[filter]) return;
        show(filter, head.lists, head);
        return;
      }
      const [head, tail] = await Promise.all([
        fetchPage(filter, undefined, false),
        fetchPage(filter, shown.next, false),
      ]);
      if (request !== latest[filter]) return;
      const target = state.lists[filter];
      const joined = joinHead(target.lists, head);
      if (joined === null) return show(filter, head.lists, head);
      const known = new Set(joined.map((entry) => entry.id));
      show(filter, [...joined, ...tail.lists.filter((entry) => !known.has(entry.id))], tail);
    } catch (error) {
      if (request !== latest[filter]) return;
      state.lists[filter].failure = errorText(error);
      throw error;
    }
  }

  function show(filter: F, lists: AccountEntry[], answer: AccountEntriesPage): void {
    const target = state.lists[filter];
    target.lists = lists;
    target.page = answer.page;
    target.next = answer.next;
    target.total = counted(target);
    target.loaded = true;
    target.failure = null;
  }

  /** Shows another filter and loads its newest page. */
  function choose(filter: F): Promise<void> {
    state.filter = filter;
    return load(filter);
  }

  /** Forgets every list (a new session, money moved): the next visit loads afresh. */
  function reset({ filter = false } = {}): void {
    for (const key of filters) latest[key] += 1;
    state.lists = fresh();
    if (filter) state.filter = filters[0]!;
  }

  // Another session (logout, another user) must never see these entries.
  subscribeKey(session, 'token', () => reset({ filter: true }));

  return { state, load, choose, reset };
}
