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
