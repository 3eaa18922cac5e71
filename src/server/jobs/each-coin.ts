// A job that works coin by coin (contract matching, option opening and settlement) runs each coin on its own: one
// whose run fails (its transaction rolled back, its orders left as they were for the next run) holds back no other.

/**
 * Runs `run` for each of `coins` in turn, whatever became of the others' runs; then, if any failed, throws the
 * failures together: an AggregateError whose message names each (`name(coin)`, e.g. "matching BTC/USDT"), so the job's
 * log still says which.
 */
export async function eachCoin(
  coins: readonly string[],
  name: (coin: string) => string,
  run: (coin: string) => Promise<void>,
): Promise<void> {
  const failures: Error[] = [];
  for (const coin of coins) {
    try {
      await run(coin);
    } catch (error) {
      failures.push(new Error(`${name(coin)} failed: ${String(error)}`, { cause: error }));
    }
  }
  if (failures.length) throw new AggregateError(failures, failures.map((failure) => failure.message).join('; '));
}

/** At most this many rows a job remembers as failing alone (per coin); past it a failing batch fails the coin's run. */
export const BAD_ROWS_KEPT = 100;

/** What batchesAroundBadRows runs: a batch, the rows a batch could claim, and one row alone. */
export interface RowBatches {
  /** The most rows a batch claims: a batch of fewer ends the run. */
  batch: number;
  /** Runs one batch (its own transaction) of every row but `exclude`; resolves with how many rows it did. */
  runBatch(exclude: readonly number[]): Promise<number>;
  /** The ids the next batch could claim, in its order, none of `exclude` (read outside a transaction). */
  claimable(exclude: readonly number[]): Promise<number[]>;
  /** Runs the row `id` alone (its own transaction); resolves with how many rows it did (0: nothing was due). */
  runRow(id: number): Promise<number>;
}

/**
 * Runs one coin's batches until one does fewer than `batch` rows, so that a row whose run fails holds back no other
 * row of its coin. When a batch fails (rolled back, its rows as they were), the rows it could have claimed are run
 * one by one; each that fails alone is left as it was and remembered in `bad` (the job's, kept between runs, at most
 * BAD_ROWS_KEPT): later batches leave it out, and each run first tries it alone again, so it is done as soon as
 * whatever broke it is mended (and forgotten when it is done, or was done elsewhere). Resolves with how many rows were
 * done; throws, once the others had their run, the failures of the rows tried alone (naming each id), and the batch's
 * own error first when running its rows alone found no new row to blame (a failure of no one row: the database, a
 * bug; or BAD_ROWS_KEPT reached), which ends the coin's run as before.
 */
export async function batchesAroundBadRows(bad: Set<number>, work: RowBatches): Promise<number> {
  let done = 0;
  const failures: Error[] = [];
  const alone = async (id: number) => {
    try {
      done += await work.runRow(id);
      bad.delete(id);
    } catch (error) {
      failures.push(new Error(`row ${id}: ${String(error)}`, { cause: error }));
      if (bad.size < BAD_ROWS_KEPT) bad.add(id);
    }
  };
  for (const id of [...bad]) await alone(id);
  for (;;) {
    let count: number;
    try {
      count = await work.runBatch([...bad]);
    } catch (error) {
      const before = bad.size;
      for (const id of await work.claimable([...bad])) await alone(id);
      if (bad.size > before) continue;
      failures.unshift(error instanceof Error ? error : new Error(String(error)));
      break;
    }
    done += count;
    if (count < work.batch) break;
  }
  if (failures.length) throw new AggregateError(failures, failures.map((failure) => failure.message).join('; '));
  return done;
}
