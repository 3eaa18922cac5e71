// The customer writes that move funds, by their API contract path, each with the input field that holds its amount
// ('' for none). Plain paths, not the endpoints: the module that keeps lost writes loads after every first screen, and
// the endpoints would bring their modules' schemas with it. tests/unit/lost-answers.test.tsx checks every path
// against its endpoint. Each such write is kept on the device while on its way (watchFundsWrites, from the start), so
// one whose page was closed or reloaded before its answer came is asked about at the next start.
import { onWriteSending } from '../../lib/api.ts';
import { lostAnswers, type LostWrite } from '../../lib/lost-answers-state.ts';
import { flushStores } from '../../lib/storage.ts';

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

/**
 * Called at start once the stores are loaded (main.tsx). The writes that move funds still on their way when the page
 * was last closed or reloaded wait to be asked about, as lost answers do (features/lost-answers/lost-answers.ts); from
 * now on each is kept, on disk, before it leaves (`sending`), and let go once its answer comes.
 */
export function watchFundsWrites(): void {
  const left = lostAnswers.sending;
  if (left.length) {
    const leftKeys = new Set(left.map((write) => write.key));
    lostAnswers.waiting = [...lostAnswers.waiting.filter((write) => !leftKeys.has(write.key)), ...left];
    lostAnswers.sending = [];
  }
  onWriteSending(
    (...write) => {
      const sending = fundsWriteOf(...write);
      if (!sending) return undefined;
      lostAnswers.sending = [...lostAnswers.sending.filter((kept) => kept.key !== sending.key), sending];
      return flushStores();
    },
    (key) => {
      if (lostAnswers.sending.some((kept) => kept.key === key))
        lostAnswers.sending = lostAnswers.sending.filter((kept) => kept.key !== key);
    },
  );
}
