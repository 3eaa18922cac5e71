// The customer writes that move funds, by their API contract path, each with the input field that holds its amount
// ('' for none). Plain paths, not the endpoints: the module that keeps lost writes loads after every first screen, and
// the endpoints would bring their modules' schemas with it. tests/unit/lost-answers.test.tsx checks every path
// against its endpoint. Each such write is kept on the device while on its way (watchFundsWrites, from the start), so
// one whose page was closed or reloaded before its answer came is asked about at the next start.
//
// The record is shared by every tab of the app, so a tab sees the writes another tab has on their way. Asking the
// server about a write it has not received yet makes the server give up that write's Idempotency-Key, and the write is
// then refused when it arrives: the customer's order fails. So the tab sending a write holds a Web Lock named for it
// (writeLockName) from before it is recorded until what became of it is on disk, and another tab takes a write for
// abandoned (its tab closed or reloaded) only when it can take that lock; while it cannot, it waits for the lock.
import { subscribeKey } from 'valtio/vanilla/utils';
import { onWriteSending } from '../../lib/api.ts';
import { lostAnswers, type LostWrite } from '../../lib/lost-answers-state.ts';
import { flushStores, storeSynced } from '../../lib/storage.ts';

export const FUNDS_WRITES: Readonly<Record<string, string>> = {
  /** placeOption */
  '/coin/order/add': 'amount',
  /** placeContract */
  '/coin/trans/add': '',
  /** lockupSubscribe */
  '/lockup/subscribe': 'amount',
  /** transferIn (liquidity) */
  '/yuebao/transfer/in': 'amount',
  /** transferOut (liquidity) */
  '/yuebao/transfer/out': 'amount',
  /** submitWithdraw */
  '/users/extract': 'amount',
  /** submitRecharge */
  '/pay/submit': 'amount',
  /** convertSmallBalances */
  '/coin/trans/dust': '',
  /** drawBlindBox */
  '/blindbox/draw': '',
  /** redeemPoints */
  '/users/ptomoney': 'number',
};

/**
 * The record of a write of FUNDS_WRITES sent as `path` under `key` with `fields`, first sent at `sentAt` (ms, UTC): its
 * amount as sent ('' for none), never another field (a payment password). Undefined for any other write.
 */
export function fundsWriteOf(
  path: string,
  key: string,
  fields: Record<string, string>,
  sentAt: number,
): LostWrite | undefined {
  const amountField = FUNDS_WRITES[path];
  if (amountField === undefined) return undefined;
  return { path, key, amount: amountField ? (fields[amountField] ?? '') : '', sentAt };
}

/** The Web Lock a tab holds while a write sent under Idempotency-Key `key` is on its way. */
export const writeLockName = (key: string) => `funds-write:${key}`;

/** The browser's Web Locks; none in some browsers (a start then takes every write left on its way as abandoned). */
const webLocks = (): LockManager | undefined => (globalThis.navigator as Navigator | undefined)?.locks;

/** This tab's writes on their way, by key: each one's lock release (a no-op without Web Locks). */
const sendingHere = new Map<string, () => void>();

/** Takes the lock of a write this tab sends under `key`; resolves once held (at once without Web Locks). */
function holdWriteLock(key: string): Promise<void> {
  const locks = webLocks();
  if (sendingHere.has(key)) return Promise.resolve();
  sendingHere.set(key, () => undefined);
  if (!locks) return Promise.resolve();
  return new Promise<void>((held) => {
    void locks.request(
      writeLockName(key),
      () =>
        new Promise<void>((release) => {
          sendingHere.set(key, release);
          held();
        }),
    );
  });
}

/**
 * Lets go of the lock of the write this tab sent under `key` once what became of it (answered, or kept as a lost
 * answer) is on disk, where the tab that takes the lock next reads it.
 */
export function releaseWriteLock(key: string): void {
  const release = sendingHere.get(key);
  if (!release) return;
  sendingHere.delete(key);
  void flushStores().then(release, release);
}

/**
 * Runs `question` (the server asked what became of the write sent under `key`) while no tab is sending that write,
 * holding its lock so that none starts meanwhile; resolves `{ value }` with its answer, or undefined without running
 * it while a tab is sending it (it is asked later). Without Web Locks it just runs.
 */
export async function unlessSending<T>(key: string, question: () => Promise<T>): Promise<{ value: T } | undefined> {
  const locks = webLocks();
  if (!locks) return { value: await question() };
  return locks.request(writeLockName(key), { ifAvailable: true }, async (lock) =>
    lock ? { value: await question() } : undefined,
  );
}

/** Writes of another tab found on their way, whose lock this tab is waiting for. */
const awaited = new Set<string>();
/** Told when a write left on its way by a tab that closed was moved to those waiting to be asked about. */
let onAbandoned: () => void = () => undefined;

/** Moves the write sent under `key` from those on their way to those waiting to be asked about. */
function moveToWaiting(key: string): boolean {
  const write = lostAnswers.sending.find((kept) => kept.key === key);
  if (!write) return false;
  lostAnswers.waiting = [...lostAnswers.waiting.filter((kept) => kept.key !== key), write];
  lostAnswers.sending = lostAnswers.sending.filter((kept) => kept.key !== key);
  return true;
}

/**
 * The writes of the record on their way that no tab is sending any more (their tab closed or reloaded first) move to
 * those waiting to be asked about; for each one another tab is still sending, this tab waits for its lock, then reads
 * the record again (that tab writes what became of it before letting go) and moves it if it is still there. Resolves
 * once those that could be told apart now have been. Without Web Locks nothing moves here (only at start).
 */
export async function takeAbandonedWrites(): Promise<void> {
  const locks = webLocks();
  const others = lostAnswers.sending.filter((write) => !sendingHere.has(write.key) && !awaited.has(write.key));
  if (!locks || !others.length) return;
  let moved = false;
  for (const { key } of others) {
    const free = await locks.request(writeLockName(key), { ifAvailable: true }, async (lock) => {
      if (!lock) return false;
      // The record as on disk: a tab that has just let the lock go wrote there what became of the write first.
      await storeSynced(lostAnswers);
      moved = moveToWaiting(key) || moved;
      return true;
    });
    if (free || awaited.has(key)) continue;
    awaited.add(key);
    void locks.request(writeLockName(key), async () => {
      awaited.delete(key);
      await storeSynced(lostAnswers);
      if (moveToWaiting(key)) onAbandoned();
    });
  }
  if (moved) onAbandoned();
}

/**
 * Called at start once the stores are loaded (main.tsx), with what to do when a write another tab left on its way is
 * to be asked about (`abandoned`: start asking). The writes that move funds still on their way when their page was
 * closed or reloaded wait to be asked about, as lost answers do (features/lost-answers/lost-answers.ts), but never one
 * another open tab is still sending (takeAbandonedWrites); from now on each write of this tab is kept, on disk, before
 * it leaves (`sending`), under its lock, and let go once its answer comes. Resolves once the first look is done.
 */
export function watchFundsWrites(abandoned: () => void = () => undefined): Promise<void> {
  onAbandoned = abandoned;
  onWriteSending(
    (...write) => {
      const sending = fundsWriteOf(...write);
      if (!sending) return undefined;
      // The lock first: a tab that reads the record must never find the write there without it.
      return holdWriteLock(sending.key).then(() => {
        lostAnswers.sending = [...lostAnswers.sending.filter((kept) => kept.key !== sending.key), sending];
        return flushStores();
      });
    },
    (key) => {
      if (lostAnswers.sending.some((kept) => kept.key === key))
        lostAnswers.sending = lostAnswers.sending.filter((kept) => kept.key !== key);
      releaseWriteLock(key);
    },
  );
  if (!webLocks()) {
    // No way to tell a live tab's write from a closed one's: every write left on its way is taken for abandoned.
    for (const { key } of [...lostAnswers.sending]) moveToWaiting(key);
    return Promise.resolve();
  }
  // A write another tab starts sending later is waited for too, so it is asked about if that tab closes first.
  subscribeKey(lostAnswers, 'sending', () => void takeAbandonedWrites());
  return takeAbandonedWrites();
}
