// What became of a write whose answer never reached the customer. A keyed write (one with an Idempotency-Key) may be
// applied by the server while the connection drops before its answer: the app then knows only that it does not know.
// Asked with the write's path and key, the server says what it did with that key, read from the key's stored answer,
// so the app can tell the customer ("your lock-up subscription of 150 USDT went through") instead of leaving them to
// tap again with a new key and place it twice.
//
// A key the server never received is given up when asked about: a copy of the write that arrives later (held in a
// proxy, say) is refused as a reused key and applies nothing, so "it did not reach us" stays true once said.
//
// Keys are not kept for ever (IDEMPOTENCY_KEY_RETENTION_MS in constants.ts): the app says when it first sent the
// write, and a key not found whose write was sent before that horizon may have been applied and deleted since, so it
// is answered `expired` (never `not_received`), nothing is given up, and the customer is told to check their records.
// An app from before `sent_at` (one left open across an update) may still ask without it: see writeOutcome.
import * as v from 'valibot';
import { post, returns } from './endpoint.ts';
import { isoTime, shape } from './answers.ts';
import { matching } from './fields.ts';
import { texts } from './texts.ts';

/**
 * - `applied`: the write was done (its answer was a success);
 * - `refused`: the server answered it with a refusal (`msg`, in the language it was asked in); nothing was done;
 * - `in_progress`: the server is still working on it: ask again in a few seconds;
 * - `not_received`: it never reached the server (or died there before anything was written): nothing was done, and
 *   from now on nothing will be done under that key;
 * - `expired`: not found, and sent too long ago to tell (keyMayBeDeleted): its key may have been applied and deleted
 *   since. The customer checks their records; the write must not be sent again on the strength of this answer.
 */
export const WRITE_OUTCOMES = ['applied', 'refused', 'in_progress', 'not_received', 'expired'] as const;
export type WriteOutcomeState = (typeof WRITE_OUTCOMES)[number];

export const WriteOutcome = shape({
  state: v.picklist(WRITE_OUTCOMES),
  /** `refused`: the refusal as answered; null otherwise. */
  msg: v.nullable(v.string()),
  /** When the server received the write (UTC); null for `not_received` and `expired`. */
  received_at: v.nullable(isoTime),
});
export type WriteOutcome = v.InferOutput<typeof WriteOutcome>;

/** An Idempotency-Key as the app makes them (a UUID), or any other a client sent: at most 128 characters. */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{1,128}$/;

/** When the write was first sent under its key, by the device's clock (UTC). */
const SENT_AT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

/**
 * The outcome of the caller's own write `path` (a customer write of the API contract, as `/lockup/subscribe`) sent with
 * Idempotency-Key `key`, first sent at `sent_at` (ISO 8601, UTC, the device's clock). Only the caller's keys are
 * found: another customer's key reads as `not_received` for them (or `expired`, sent that long ago) and gives nothing
 * up for its owner. Refused with "The request is not valid!" for a path that is not such a write.
 * A write itself (it gives up a key never received), answered the same when asked again.
 *
 * `sent_at` is optional for the app versions from before it, which stay open until their next start after an update:
 * a kept key is answered as usual, and a key not found, which without `sent_at` cannot be told apart from one
 * deleted by its retention, is answered `in_progress` (that app has no word for `expired`): it keeps the write and asks
 * again, and the version it starts next asks with `sent_at`. Nothing is given up on such an answer.
 */
export const writeOutcome = post(
  '/users/write-outcome',
  v.object({
    path: matching(/^\/[a-z0-9/_-]{1,64}$/, texts.invalidRequest),
    key: matching(IDEMPOTENCY_KEY, texts.invalidRequest),
    sent_at: v.optional(v.pipe(matching(SENT_AT, texts.invalidRequest), v.isoTimestamp(texts.invalidRequest.id))),
  }),
  returns(WriteOutcome),
);
