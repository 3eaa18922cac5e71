// What became of a write whose answer never reached the customer. A keyed write (one with an Idempotency-Key) may be
// applied by the server while the connection drops before its answer: the app then knows only that it does not know.
// Asked with the write's path and key, the server says what it did with that key, read from the key's stored answer,
// so the app can tell the customer ("your lock-up subscription of 150 USDT went through") instead of leaving them to
// tap again with a new key and place it twice.
//
// A key the server never received is given up when asked about: a copy of the write that arrives later (held in a
// proxy, say) is refused as a reused key and applies nothing, so "it did not reach us" stays true once said.
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
 *   from now on nothing will be done under that key.
 */
export const WRITE_OUTCOMES = ['applied', 'refused', 'in_progress', 'not_received'] as const;
export type WriteOutcomeState = (typeof WRITE_OUTCOMES)[number];

export const WriteOutcome = shape({
  state: v.picklist(WRITE_OUTCOMES),
  /** `refused`: the refusal as answered; null otherwise. */
  msg: v.nullable(v.string()),
  /** When the server received the write (UTC); null for `not_received`. */
  received_at: v.nullable(isoTime),
});
export type WriteOutcome = v.InferOutput<typeof WriteOutcome>;

/** An Idempotency-Key as the app makes them (a UUID), or any other a client sent: at most 128 characters. */
export const IDEMPOTENCY_KEY = /^[A-Za-z0-9_-]{1,128}$/;

/**
 * The outcome of the caller's own write `path` (a customer write of the API contract, as `/lockup/subscribe`) sent with
 * Idempotency-Key `key`. Only the caller's keys are found: another customer's key reads as `not_received` for them
 * and gives nothing up for its owner. Refused with "The request is not valid!" for a path that is not such a write.
 * A write itself (it gives up a key never received), answered the same when asked again.
 */
export const writeOutcome = post(
  '/users/write-outcome',
  v.object({
    path: matching(/^\/[a-z0-9/_-]{1,64}$/, texts.invalidRequest),
    key: matching(IDEMPOTENCY_KEY, texts.invalidRequest),
  }),
  returns(WriteOutcome),
);
