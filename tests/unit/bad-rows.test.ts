// A job's batches around the rows whose run fails alone (batchesAroundBadRows), on rows in memory: the rows that fail
// alone are left out and remembered, a failure of no one row ends the run with its own error, the memory is bounded.
import { describe, expect, it } from 'vitest';
import { BAD_ROWS_KEPT, batchesAroundBadRows, type RowBatches } from '../../src/server/jobs/each-coin.ts';

/** Rows 1..count waiting; a batch of any row in `failing` fails whole (as one transaction), as does any row alone. */
function rows(count: number, failing: (id: number) => boolean, batch = 3) {
  const waiting = Array.from({ length: count }, (_, i) => i + 1);
  const done: number[] = [];
  const claimable = async (exclude: readonly number[]) =>
    waiting.filter((id) => !done.includes(id) && !exclude.includes(id)).slice(0, batch);
  const work: RowBatches = {
    batch,
    claimable,
    async runBatch(exclude) {
      const ids = await claimable(exclude);
      if (ids.some(failing)) throw new Error(`batch of ${ids.join(',')} refused`);
      done.push(...ids);
      return ids.length;
    },
    async runRow(id) {
      if (failing(id)) throw new Error(`${id} refused`);
      if (done.includes(id)) return 0;
      done.push(id);
      return 1;
    },
  };
  return { work, done };
}

describe('batchesAroundBadRows', () => {
  it('does every other row, leaves the failing ones out, and names them', async () => {
    const { work, done } = rows(8, (id) => id === 2 || id === 6);
    const bad = new Set<number>();
    await expect(batchesAroundBadRows(bad, work)).rejects.toThrow(/row 2: Error: 2 refused; row 6: Error: 6 refused/);
    expect(done.sort((a, b) => a - b)).toEqual([1, 3, 4, 5, 7, 8]);
    expect([...bad]).toEqual([2, 6]);
  });

  it('tries the remembered rows alone first, and forgets one once it is done', async () => {
    let mended = false;
    const { work, done } = rows(4, (id) => id === 2 && !mended);
    const bad = new Set([2]);
    await expect(batchesAroundBadRows(bad, work)).rejects.toThrow(/row 2/);
    expect(done).toEqual([1, 3, 4]);
    mended = true;
    expect(await batchesAroundBadRows(bad, work)).toBe(1);
    expect(done).toEqual([1, 3, 4, 2]);
    expect(bad.size).toBe(0);
  });

  it('ends with the batch’s own error when no row fails alone, having done the rows it could', async () => {
    const { work, done } = rows(2, () => false);
    work.runBatch = async () => {
      throw new Error('the database went away');
    };
    await expect(batchesAroundBadRows(new Set(), work)).rejects.toThrow(/the database went away/);
    expect(done).toEqual([1, 2]);
  });

  it(`remembers at most ${BAD_ROWS_KEPT} rows, then ends the run instead of trying the rest alone again`, async () => {
    const { work, done } = rows(BAD_ROWS_KEPT + 10, (id) => id <= BAD_ROWS_KEPT + 1, BAD_ROWS_KEPT + 10);
    const bad = new Set<number>();
    await expect(batchesAroundBadRows(bad, work)).rejects.toThrow(/refused/);
    expect(bad.size).toBe(BAD_ROWS_KEPT);
    expect(done).toHaveLength(9);
  });
});
