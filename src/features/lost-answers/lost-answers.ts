// Writes that move funds whose answer was lost: kept on the device (lib/lost-answers-state.ts) and, as soon as the
// server can be asked (at start, back online, after a sign-in, a few seconds after the loss), asked about by their
// Idempotency-Key (api-contract/write-outcome.ts). What the server says is shown to the customer
// (LostAnswerDialog.tsx): the subscription went through, was refused, never arrived, or was sent too long ago to check
// (the server keeps keys IDEMPOTENCY_KEY_RETENTION_MS; the customer is told to check their records). Without it a
// customer who reloads after "You are offline" would tap again with a new key and place the order twice.
import { keyMayBeDeleted } from '../../api-contract/constants.ts';
import { writeOutcome } from '../../api-contract/write-outcome.ts';
import { RET_TOKEN_INVALID } from '../../api-contract/envelope.ts';
import { subscribeKey } from 'valtio/vanilla/utils';
import { ApiError, api, forgetUnanswered, newIdempotencyKey, onLostAnswer } from '../../lib/api.ts';
import { lostAnswers, type LostWrite } from '../../lib/lost-answers-state.ts';
import { heldWrites, session } from '../../lib/session.ts';
import { fundsWriteOf, releaseWriteLock, takeAbandonedWrites, unlessSending } from './funds-writes.ts';

/** The most lost writes kept waiting at once (the oldest dropped first): a tap is a write, and taps are few. */
const WAITING_MAX = 16;
/** How soon a write the server is still working on (or one just lost) is asked about again, in ms. */
const ASK_AGAIN_MS = 4000;

/**
 * Keeps a write of FUNDS_WRITES whose answer was lost (`sentAt`: when it was first sent under `key`, ms, UTC) and asks
 * about it shortly. The same key lost again keeps its first time: the server's retention of the key counts from then.
 */
export function keepLostWrite(path: string, key: string, fields: Record<string, string>, sentAt = Date.now()): void {
  const lost = fundsWriteOf(path, key, fields, sentAt);
  if (!lost) return;
  const before = lostAnswers.waiting.find((write) => write.key === key);
  const others = lostAnswers.waiting.filter((write) => write.key !== key);
  const write: LostWrite = { ...lost, sentAt: Math.min(sentAt, before?.sentAt ?? sentAt) };
  lostAnswers.waiting = [...others, write].slice(-WAITING_MAX);
  lostAnswers.sending = lostAnswers.sending.filter((sending) => sending.key !== key);
  // Kept here now: another tab may take it once this is on disk.
  releaseWriteLock(key);
  askAgainSoon();
}

let asking: Promise<void> | null = null;
let again: ReturnType<typeof setTimeout> | undefined;

function askAgainSoon(): void {
  clearTimeout(again);
  again = setTimeout(() => void askAboutLostWrites(), ASK_AGAIN_MS);
}

/**
 * Asks the server about every waiting write, one after the other; each answered one moves to `told` (shown to the
 * customer), a key the server refused or never received is forgotten for the next tap (lib/api.ts), and a write it is
 * still working on is asked about again in ASK_AGAIN_MS. Offline, signed out or failing, it stops and waits for the
 * next chance. Resolves when done; a call while one runs joins it.
 */
export function askAboutLostWrites(): Promise<void> {
  asking ??= askAll().finally(() => (asking = null));
  return asking;
}

async function askAll(): Promise<void> {
  let applied = false;
  // Writes left on their way by a tab closed since are asked about too; never one a tab is still sending.
  await takeAbandonedWrites();
  for (const write of [...lostAnswers.waiting]) {
    if (!session.token || heldWrites.userId !== null || navigator.onLine === false) {
      tellTooOld();
      break;
    }
    let outcome;
    try {
      // Never while a tab sends it again (a second tap under the same key): the server would give its key up.
      const asked = await unlessSending(write.key, () =>
        api(
          writeOutcome,
          { path: write.path, key: write.key, sent_at: new Date(write.sentAt).toISOString() },
          // A key of its own each time: the question's own lost answer is never replayed as a stale one.
          { loading: false, idempotencyKey: newIdempotencyKey(), redirectOnInvalidToken: false },
        ),
      );
      if (!asked) {
        askAgainSoon();
        continue;
      }
      outcome = asked.value;
    } catch (error) {
      // A question refused (ret 0: a path no longer a write after an update) is dropped; no answer: asked later.
      if (error instanceof ApiError && error.ret === 0) remove(write.key);
      else if (!(error instanceof ApiError && error.ret === RET_TOKEN_INVALID)) askAgainSoon();
      tellTooOld();
      break;
    }
    if (outcome.state === 'in_progress') {
      askAgainSoon();
      continue;
    }
    remove(write.key);
    lostAnswers.told = [...lostAnswers.told, { ...write, state: outcome.state, msg: outcome.msg }];
    if (outcome.state === 'applied') applied = true;
    else forgetUnanswered(write.key);
  }
  // Loaded only then: the balances' code is not this module's to bring to every first screen.
  if (applied)
    await import('../../lib/balances.ts').then(({ refreshBalances }) => refreshBalances({ loading: false }), noop);
}

/**
 * Tells, without asking, the waiting writes sent so long ago that the server may have deleted their keys
 * (keyMayBeDeleted): it would answer them `expired` too, and the customer should not wait for the network to learn to
 * check their records. Only while signed in: the list is the signed-in customer's.
 */
function tellTooOld(): void {
  if (!session.token || heldWrites.userId !== null) return;
  const now = Date.now();
  const tooOld = lostAnswers.waiting.filter((write) => keyMayBeDeleted(write.sentAt, now));
  if (!tooOld.length) return;
  for (const write of tooOld) {
    remove(write.key);
    forgetUnanswered(write.key);
  }
  lostAnswers.told = [
    ...lostAnswers.told,
    ...tooOld.map((write) => ({ ...write, state: 'expired' as const, msg: null })),
  ];
}

function remove(key: string): void {
  lostAnswers.waiting = lostAnswers.waiting.filter((write) => write.key !== key);
}

const noop = () => undefined;
let started = false;

/**
 * Starts keeping lost writes and asks about those kept: now, when the device is back online and after a sign-in (also
 * after the server ended the session: lib/session.ts, heldWrites). Loaded
 * and called by main.tsx when a write's answer is lost or one is kept from before; a second call does nothing.
 */
export function startLostAnswers(): void {
  if (started) return;
  started = true;
  onLostAnswer(keepLostWrite);
  addEventListener('online', () => void askAboutLostWrites());
  // A sign-in: asked once the user is known (what the device held from an ended session may be another customer's).
  subscribeKey(session, 'user', (user) => user && void askAboutLostWrites());
  void askAboutLostWrites();
}
