// The app asks a statement page after page and makes one file of them: the first page's opening, every entry in
// order, the last page's closing; pages that do not follow on from each other are an error, never a file.
import { expect, it } from 'vitest';
import { wholeStatement } from '../../src/features/funds/statement-pages.ts';
import type { Statement } from '../../src/api-contract/statements.ts';

const entry = (id: number, amount: string, balance: string) => ({
  id,
  amount,
  balance,
  kind: 'welfare',
  reference: `welfare:${id}`,
  created_at: '2026-11-21T10:00:00.000Z',
});

const page = (opening: string, entries: Statement['entries'], closing: string, next: string | null): Statement => ({
  asset: 'USDT',
  from: '2026-11-21',
  to: '2026-11-21',
  time_zone: 'UTC',
  starts_at: '2026-11-21T00:00:00.000Z',
  ends_at: '2026-11-22T00:00:00.000Z',
  opening,
  entries,
  closing,
  next,
});

it('asks each page after the one before and joins them into one statement', async () => {
  const pages: Record<string, Statement> = {
    first: page('1.00000000', [entry(1, '1.00000000', '2.00000000')], '2.00000000', '11'),
    '11': page('2.00000000', [entry(2, '-0.50000000', '1.50000000')], '1.50000000', '12'),
    '12': page('1.50000000', [entry(3, '0.25000000', '1.75000000')], '1.75000000', null),
  };
  const asked: (string | undefined)[] = [];
  const whole = await wholeStatement(async (after) => {
    asked.push(after);
    return pages[after ?? 'first']!;
  });
  expect(asked).toEqual([undefined, '11', '12']);
  expect(whole).toMatchObject({ opening: '1.00000000', closing: '1.75000000', next: null });
  expect(whole.entries.map((one) => one.id)).toEqual([1, 2, 3]);
});

it('refuses pages that do not follow on from each other', async () => {
  const pages: Record<string, Statement> = {
    first: page('1.00000000', [entry(1, '1.00000000', '2.00000000')], '2.00000000', '11'),
    '11': page('3.00000000', [entry(2, '-0.50000000', '2.50000000')], '2.50000000', null),
  };
  await expect(wholeStatement(async (after) => pages[after ?? 'first']!)).rejects.toThrow(
    'A statement page opens at 3.00000000, after a page that closed at 2.00000000',
  );
});
