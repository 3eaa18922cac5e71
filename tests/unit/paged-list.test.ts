// The one client core every paged list uses (lib/paged-list.ts): "Load more" continues after the cursor, shows each
// row once, goes away when the server says the list has ended, and reading the head again shows what arrived meanwhile
// on top without losing the pages read or leaving a gap.
import { expect, it } from 'vitest';
import type { CursorPage } from '../../src/api-contract/envelope.ts';
import {
  cursorLoader,
  emptyCursorList,
  hasMore,
  withHead,
  withPage,
  type Arrivals,
  type CursorList,
} from '../../src/lib/paged-list.ts';

type Row = { id: number };
/** Rows `from` down to `to`, newest (highest id) first. */
const rows = (from: number, to: number): Row[] => Array.from({ length: from - to + 1 }, (_, i) => ({ id: from - i }));
const ids = (list: { lists: Row[] }) => list.lists.map((row) => row.id);

/**
 * A server list of rows newest first, paged by "before id", `size` a page; `add` puts rows on top, as new ones arrive.
 */
function server(count: number, size: number) {
  let top = count;
  const asked: string[] = [];
  const page = async (cursor: string): Promise<CursorPage<Row>> => {
    asked.push(cursor);
    const below = cursor ? Number(cursor) : top + 1;
    const lists = rows(Math.min(top, below - 1), 1).slice(0, size);
    const last = lists.at(-1);
    return { lists, next: last && last.id > 1 ? String(last.id) : null };
  };
  return { page, asked, add: (n: number) => void (top += n) };
}

function loaderOf(backend: ReturnType<typeof server>, arrivals: Arrivals = 'head') {
  const list: CursorList<Row> = emptyCursorList();
  const loader = cursorLoader(
    () => list,
    (cursor) => backend.page(cursor),
    { arrivals },
  );
  return { list, loader };
}

it('pages to the end with rows arriving meanwhile: each row once, no gap, then "Load more" goes and asks nothing', async () => {
  const backend = server(25, 10);
  const { list, loader } = loaderOf(backend);
  await loader.load();
  expect(ids(list)).toEqual(ids({ lists: rows(25, 16) }));
  backend.add(4);
  await loader.load({ more: true });
  await loader.load({ more: true });
  expect(ids(list)).toEqual(ids({ lists: rows(25, 1) }));
  expect(hasMore(list)).toBe(false);
  expect(backend.asked).toEqual(['', '16', '6']);
  await loader.load({ more: true });
  expect(backend.asked).toHaveLength(3);

  // Opened again: the four that arrived are on top, and the pages read stay.
  await loader.load();
  expect(ids(list)).toEqual(ids({ lists: rows(29, 1) }));
  expect(hasMore(list)).toBe(false);
});

it('when more arrived than a page holds, the head alone is shown and "Load more" continues from it', async () => {
  const backend = server(12, 5);
  const { list, loader } = loaderOf(backend);
  await loader.load();
  await loader.load({ more: true });
  backend.add(8);
  await loader.load();
  expect(ids(list)).toEqual([20, 19, 18, 17, 16]);
  expect(hasMore(list)).toBe(true);
  for (let taps = 0; hasMore(list) && taps < 10; taps++) await loader.load({ more: true });
  expect(ids(list)).toEqual(ids({ lists: rows(20, 1) }));
});

it('a list in another order starts again from its head when read again', () => {
  const shown = { lists: rows(10, 1), next: null, loaded: true };
  const head = { lists: rows(12, 8), next: '8' };
  expect(withHead(shown, head, 'anywhere')).toEqual({ lists: head.lists, next: '8' });
  expect(withHead(shown, head, 'head')).toEqual({ lists: rows(12, 1), next: null });
});

it('a row the head no longer has above the point it meets the list has left the list', () => {
  const shown = { lists: rows(10, 1), next: null, loaded: true };
  // 9 was read (it left the unread list) and 11 arrived: the head meets the list at 6.
  const head = { lists: [11, 10, 8, 7, 6].map((id) => ({ id })), next: '6' };
  expect(ids({ lists: withHead(shown, head).lists })).toEqual([11, 10, 8, 7, 6, 5, 4, 3, 2, 1]);
});

it('a page never repeats a row already shown, and says where the next one starts', () => {
  expect(withPage({ lists: rows(5, 3) }, { lists: rows(3, 1), next: null })).toEqual({ lists: rows(5, 1), next: null });
});

it('shows "Load more" by the cursor, and by the total for a list still paged by number', () => {
  expect(hasMore({ lists: [], next: '5' })).toBe(true);
  expect(hasMore({ lists: [], next: null })).toBe(false);
  expect(hasMore({ lists: [1], total: 2 })).toBe(true);
  expect(hasMore({ lists: [1, 2], total: 2 })).toBe(false);
});
