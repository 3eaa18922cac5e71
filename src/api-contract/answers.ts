// Building blocks of the answer schemas: the shapes `data` of a successful answer is written in.
// Only the server, its tests and the published document keep them: the PWA's build drops every
// `returns(…)` argument (src/build/api-contract-answers-server-only.ts), so none of this reaches a
// client bundle. Answer objects are strict: a field the API contract does not name is a mismatch.
import * as v from 'valibot';

/** A decimal as the server writes it: digits, an optional fraction, no sign, no exponent. */
export const DECIMAL = /^\d+(?:\.\d+)?$/;
/** A decimal that can fall below zero (a profit, a ledger move): an optional sign in front. */
export const SIGNED_DECIMAL = /^[-+]?\d+(?:\.\d+)?$/;

// The examples are what the published document (and a mock built from it) shows for the field.
export const decimal = v.pipe(v.string(), v.regex(DECIMAL), v.examples(['1234.56']));
export const signedDecimal = v.pipe(v.string(), v.regex(SIGNED_DECIMAL), v.examples(['-12.5']));
/** A decimal, or '' where the figure does not apply (a wallet payout's baht rate). */
export const decimalOrEmpty = v.union([decimal, v.literal('')]);
/** A moment, as Date.toISOString() writes it. */
export const isoTime = v.pipe(v.string(), v.isoTimestamp(), v.examples(['2026-11-23T08:30:00.000Z']));
/** A SHA-256 digest or a blind box's server seed: 64 hex digits. */
export const hex64 = v.pipe(
  v.string(),
  v.regex(/^[0-9a-f]{64}$/),
  v.examples(['9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08']),
);
/** A calendar day: "2026-11-23" (an interest day, in the server's earn timezone). */
export const isoDay = v.pipe(v.string(), v.isoDate(), v.examples(['2026-11-23']));
/** A row's id, a count, a number of days or minutes. */
export const whole = v.pipe(v.number(), v.integer(), v.minValue(0));
/**
 * An object of an answer: strict, so a field the API contract does not name is a mismatch. The PWA's
 * build calls it without an argument, like `returns`, so no answer's fields reach a client bundle.
 */
export const shape = /*#__NO_SIDE_EFFECTS__*/ <E extends v.ObjectEntries>(entries: E) => v.strictObject(entries);
/** A list an answer may leave out (null), read-only to the app; built out of the PWA like `shape`. */
export const nullableList = /*#__NO_SIDE_EFFECTS__*/ <T extends v.GenericSchema>(item: T) =>
  v.nullable(v.pipe(v.array(item), v.readonly()));
/** The data of an answer that carries none. */
export const nothing = v.null();
