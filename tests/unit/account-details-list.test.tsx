// @vitest-environment jsdom
// Account details as a customer pages them: opened, four new entries made meanwhile, then "Load more" to the end.
// Each tap adds the next older entries (never an empty page, never one twice) and brings what arrived meanwhile to
// the top; at the end the button goes away. More new entries than a page start the list afresh from the newest.
import { act } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { expect, it } from 'vitest';
import { FUNDS_PAGE_SIZE, type AccountEntriesPage, type AccountEntry } from '../../src/api-contract/funds.ts';
import { cursorLists } from '../../src/features/funds/account-details-list.ts';
import { FilteredRecords } from '../../src/ui/records.tsx';
import { mountPoint } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();

/** A ledger of one customer as the server pages it: newest first, a cursor being an entry's place (its id here). */
function ledger(count: number) {
  const entries: AccountEntry[] = [];
  const add = (more: number) => {
    for (let i = 0; i < more; i++) {
      const id = entries.length + 1;
      entries.unshift({
        id,
        asset: 'USDT',
        amount: '1.00000000',
        kind: 'recharge',
        reference: `recharge:${id}`,
        created_at: '2026-11-22T08:00:00.000Z',
      });
    }
  };
  add(count);
  const asked: (string | undefined)[] = [];
  const fetchPage = async (_: 'all', before: string | undefined): Promise<AccountEntriesPage> => {
    asked.push(before);
    const older = before === undefined ? entries : entries.filter((entry) => entry.id < Number(before));
    const lists = older.slice(0, FUNDS_PAGE_SIZE);
    const more = older.length > FUNDS_PAGE_SIZE;
    return { lists, page: 1, total: entries.length, next: more ? String(lists.at(-1)!.id) : null };
  };
  return { add, asked, fetchPage };
}

async function open(fetchPage: ReturnType<typeof ledger>['fetchPage']) {
  const store = cursorLists(['all'] as const, fetchPage);
  await act(async () =>
    view.root.render(
      <I18nProvider i18n={i18n}>
        <FilteredRecords
          store={store}
          look="segments"
          filters={[{ value: 'all', label: 'All' }]}
          empty="No entries yet"
          row={(entry) => <li className="entry">{entry.reference}</li>}
        />
      </I18nProvider>,
    ),
  );
  return store;
}

const shown = () => [...view.container.querySelectorAll('.entry')].map((row) => row.textContent);
const loadMore = () => [...view.container.querySelectorAll('button')].find((b) => b.textContent === 'Load more');
const references = (from: number, to: number) =>
  Array.from({ length: from - to + 1 }, (_, i) => `recharge:${from - i}`);

it('loads more to the end with four new entries made meanwhile: new ones on top, then the button goes', async () => {
  const server = ledger(45);
  await open(server.fetchPage);
  expect(shown()).toEqual(references(45, 26));
  server.add(4);

  let taps = 0;
  while (loadMore()) {
    const before = shown().length;
    await act(async () => loadMore()!.click());
    expect(shown().length).toBeGreaterThan(before);
    taps += 1;
  }
  expect(taps).toBe(2);
  // Every entry once, the four new ones at the top, newest first.
  expect(shown()).toEqual(references(49, 1));
  // Each tap followed on from the last entry shown, and asked for the newest page again.
  expect(server.asked).toEqual([undefined, undefined, '26', undefined, '6']);
});

it('starts afresh from the newest when more arrived than a page holds', async () => {
  const server = ledger(30);
  await open(server.fetchPage);
  server.add(25);
  await act(async () => loadMore()!.click());
  // The newest page no longer meets what was shown: it is shown alone, and paging goes on from it.
  expect(shown()).toEqual(references(55, 36));
  while (loadMore()) await act(async () => loadMore()!.click());
  expect(shown()).toEqual(references(55, 1));
});
