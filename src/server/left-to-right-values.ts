// The server's texts in a right-to-left language (Arabic) keep each amount beside its unit: a value set into the text
// with the left-to-right words written beside it ("{0} USDT", "{0} {1}", "{coin}/USDT", "+{0} USDT", "{1} MB") is one
// left-to-right isolate, as the Unicode Bidirectional Algorithm (Unicode Standard Annex 9) and W3C's "Inline markup
// and bidirectional text in HTML" advise for text that crosses a boundary as a string. Without it the paragraph's
// right-to-left direction lays "10 USDT" out as two runs and it reads "USDT 10" (a refusal shown as a toast, a station
// message). Only what the server writes: what customers type is still refused with any direction character
// (visible-text.ts).

/** Unicode's LEFT-TO-RIGHT ISOLATE and POP DIRECTIONAL ISOLATE: what is between them lays out left to right. */
export const LRI = '\u2066';
export const PDI = '\u2069';

/** Keeps an amount and its unit on one line, as the app's Amount element does: a line break never parts them. */
const NO_BREAK_SPACE = '\u00a0';
/** A placeholder of a text with a plain value ("{0}", "{coin}"), optionally signed or followed by a percent sign. */
const VALUE = String.raw`[+\-]?\{\w+\}%?`;
/** A left-to-right word a translation writes beside a value: an asset's or a unit's code (USDT, BTC, MB) or "%". */
const WORD = String.raw`[A-Za-z][A-Za-z0-9]*|%`;
const TOKEN = `(?:${VALUE}|${WORD})`;
/** Values and left-to-right words side by side, apart by at most one space or a pair's slash. */
const RUN = new RegExp(`${TOKEN}(?:[ /]?${TOKEN})*`, 'g');
const PLACEHOLDER = /\{(\w+)\}/g;
/** A lone placeholder, nothing beside it: its value alone decides (leftToRightValue). */
const LONE = /^\{\w+\}$/;

/**
 * A translation (a catalog's message, ICU syntax) of a right-to-left language with each run of a value and the
 * left-to-right words beside it ("{0} USDT", "{0} {1}", "{coin}/USDT") put between LRI and PDI, its spaces no-break
 * spaces (one line, as the app's Amount element keeps it), and the names of the values so placed (`inRuns`). A lone
 * value ("{0}" amid Arabic words) is left as it is: whether it needs an isolate depends on what it is
 * (leftToRightValue). A run of words without a value ("USDT" alone) is left too: the translator wrote it in its place.
 */
export function isolatedRuns(message: string): { message: string; inRuns: Set<string> } {
  const inRuns = new Set<string>();
  const isolated = message.replace(RUN, (run) => {
    if (LONE.test(run) || !run.includes('{')) return run;
    for (const [, name] of run.matchAll(PLACEHOLDER)) inRuns.add(name!);
    return `${LRI}${run.replaceAll(' ', NO_BREAK_SPACE)}${PDI}`;
  });
  return { message: isolated, inRuns };
}

/** A letter of a right-to-left script (Arabic, Hebrew, Syriac, Thaana, N'Ko) and any letter. */
const RIGHT_TO_LEFT_LETTER = /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}]/u;
const LETTER = /\p{L}/u;
/** Any direction character (marks, embeddings, overrides, isolates): a value with one already says its direction. */
const DIRECTION_CHARACTER = /[\u200e\u200f\u061c\u202a-\u202e\u2066-\u2069]/u;

/**
 * A value set alone into a right-to-left text, between LRI and PDI when it is left-to-right words (letters of a
 * left-to-right script, none of a right-to-left one: "Chrome on Android", "BTC/USDT", "5 USDT, 2 BTC"), so its parts
 * keep their order; any other value as it is: a number (digits read left to right by themselves), a value in the
 * reader's language (a period, a status), one that already carries its direction (a customer's own text, isolated).
 */
export function leftToRightValue(value: unknown): unknown {
  if (typeof value !== 'string' || DIRECTION_CHARACTER.test(value)) return value;
  return LETTER.test(value) && !RIGHT_TO_LEFT_LETTER.test(value) ? `${LRI}${value}${PDI}` : value;
}
