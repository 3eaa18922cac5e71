// Every answer is { ret, msg, data } (ret 1 ok, 0 failure, -1 token invalid); lists are read under data.lists. A
// refusal about one field of the request also names it: { ret: 0, msg, data: null, field }.
import * as v from 'valibot';
import { whole } from './answers.ts';

export const RET_OK = 1;
export const RET_FAIL = 0;
export const RET_TOKEN_INVALID = -1;
export type Ret = typeof RET_OK | typeof RET_FAIL | typeof RET_TOKEN_INVALID;

export interface Envelope<T = unknown> {
  ret: Ret;
  msg: string;
  data: T;
  /**
   * On a refusal (ret 0) about one field of the request: that field's name as the endpoint's input declares it
   * (`amount`, `paypass`, `phone`), so a form shows msg under that field rather than apart from it. Absent on every
   * other answer, and on a refusal of the request as a whole; a client that does not know it reads msg as before.
   */
  field?: string;
}

export interface Paged<T> {
  lists: T[];
  page: number;
  total: number;
}
/**
 * The answer schema of a list: `returns(Paged(CoinQuote))`; `more` names fields the answer carries
 * beside the list (the K-lines' coin and period).
 */
export const Paged = /*#__NO_SIDE_EFFECTS__*/ <
  T extends v.GenericSchema,
  E extends v.ObjectEntries = Record<never, never>,
>(
  item: T,
  more?: v.StrictObjectSchema<E, undefined>,
) => v.strictObject({ lists: v.array(item), page: whole, total: whole, ...(more?.entries as E) });

/**
 * One page of a list paged by a cursor: the rows in the list's order, and `next`, the cursor that continues after the
 * last of them (sent back as `cursor`), or null when this page is the list's last.
 */
export interface CursorPage<T> {
  lists: T[];
  next: string | null;
}
/**
 * The answer schema of a list paged by a cursor: `returns(CursorPaged(OptionOrder))`; `more` names fields the answer
 * carries beside the list (a count the screen shows).
 */
export const CursorPaged = /*#__NO_SIDE_EFFECTS__*/ <
  T extends v.GenericSchema,
  E extends v.ObjectEntries = Record<never, never>,
>(
  item: T,
  more?: v.StrictObjectSchema<E, undefined>,
) => v.strictObject({ lists: v.array(item), next: v.nullable(v.string()), ...(more?.entries as E) });

/** Request headers of the wire format. */
export const TOKEN_HEADER = 'token';
export const LANG_HEADER = 'lang';
export const IDEMPOTENCY_HEADER = 'idempotency-key';
/** Every answer's id, as its log lines carry it: the app keeps those of its failed calls for support (Diagnostics). */
export const REQUEST_ID_HEADER = 'x-request-id';
/**
 * Sent with "true" on a keyed write's refusal "still being processed" (ret 0): a copy of the write under the same
 * Idempotency-Key is still running, so this answer is no outcome. The app keeps the key and asks what became of the
 * write, as for an answer that never came, rather than sending the next tap as a new write.
 */
export const IDEMPOTENCY_BUSY_HEADER = 'idempotent-busy';
