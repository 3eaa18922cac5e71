// What a person types or pastes into an amount, price or percentage field, read as the wire's plain ASCII decimal.
// The one rule every decimal field of the app and the console uses; the server itself accepts ASCII decimals only.
import type { NumberParser } from '@internationalized/number';
import { digitOf, type NumberingSystem, zeroOf } from '../api-contract/typed-digits.ts';

/**
 * Why a text is not read as a number: not a number at all, a number that can be read two ways (`1,5`, `1.000.000,5`),
 * one with more decimals than the field takes, or one holding an invisible or direction-changing character (the field
 * would show one number and mean another: U+202E before "0051" shows "1500").
 */
export type AmountProblem = 'notNumber' | 'ambiguous' | 'decimals' | 'hidden';

/**
 * A text read: `value` is a plain ASCII decimal ('1000.50', '0.5', '' for an empty field), exact as typed (a string,
 * never a float: 8-decimal and 18-digit amounts keep every digit). Otherwise the problem, whether typing on could
 * still make it a number (`unfinished`: '1,' on its way to '1,000'), and the script its digits were typed in (the
 * message's example is written in it).
 */
export type AmountReading =
  { ok: true; value: string } | { ok: false; problem: AmountProblem; unfinished: boolean; system: NumberingSystem };

/** Direction embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): each reorders what follows it. */
const DIRECTION_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/u;
/** The Arabic decimal separator (U+066B) and thousands separator (U+066C): each has one meaning in every language. */
const ARABIC_DECIMAL = '\u066b';
const ARABIC_GROUP = '\u066c';
/** The Arabic comma (U+060C): some keyboards type it for the decimal mark, so it is never read as a group. */
const ARABIC_COMMA = '\u060c';

/** The decimal and group marks of a language with ASCII digits (en: '.' and ','), from the browser's CLDR data. */
const marksByLocale = new Map<string, { decimal: string; group: string }>();
function localeMarks(locale: string) {
  let marks = marksByLocale.get(locale);
  if (!marks) {
    const parts = new Intl.NumberFormat(locale, { numberingSystem: 'latn' }).formatToParts(10000.5);
    marks = {
      decimal: parts.find((part) => part.type === 'decimal')?.value ?? '.',
      group: parts.find((part) => part.type === 'group')?.value ?? ',',
    };
    // Keyed by the app's own language tags (six of them), never by what a caller sends.
    marksByLocale.set(locale, marks);
  }
  return marks;
}

/** The maintained locale-aware parser (@internationalized/number, 2.5 KB gzip): loaded once a number field is used. */
let library: typeof import('@internationalized/number') | null = null;
let loading: Promise<void> | null = null;

/**
 * Loads the locale-aware parser that gives readAmount its second opinion, once; a field calls it when it is focused,
 * so the first screen does not carry it. Until it is there, readAmount refuses what it would dispute (below).
 */
export function loadNumberParser(): Promise<void> {
  loading ??= import('@internationalized/number').then(
    (module) => void (library = module),
    (error: unknown) => {
      loading = null; // the next field used asks again
      throw error;
    },
  );
  return loading;
}

/** The parser per language and numbering system (at most six by six). */
const parsers = new Map<string, NumberParser>();
function parserFor(locale: string, system: NumberingSystem): NumberParser | null {
  if (!library) return null;
  const tag = `${locale}-u-nu-${system}`;
  let parser = parsers.get(tag);
  if (!parser) parsers.set(tag, (parser = new library.NumberParser(tag)));
  return parser;
}

/**
 * Whether digit groups split by one mark are grouped as a reader expects: by three (10,000,000), or the Indian way,
 * by two above the last three (1,00,00,000). A first group starting with 0 ('0,500') is a decimal comma.
 */
function wellGrouped(groups: string[]): boolean {
  const [first = '', ...rest] = groups;
  const last = rest.at(-1) ?? '';
  if (!/^[1-9]\d{0,2}$/.test(first) || last.length !== 3) return false;
  const middle = rest.slice(0, -1);
  const byThree = middle.every((group) => group.length === 3);
  const indian = first.length <= 2 && middle.every((group) => group.length === 2);
  return byThree || indian;
}

/**
 * Whether the whole part of `text` (up to its first character that is neither a digit of any script nor `mark`: the
 * other convention's decimal mark) is digit groups split by `mark`, grouped as a reader expects.
 */
function groupedBy(text: string, mark: string): boolean {
  let whole = '';
  for (const char of text) {
    const digit = digitOf(char);
    if (char !== mark && !digit) break;
    whole += digit ? String(digit.value) : mark;
  }
  return wellGrouped(whole.split(mark));
}

type Read = { ok: true; value: string } | { ok: false; problem: AmountProblem };

/** The reading of a cleaned text, without the look ahead at what typing on could make of it. */
function readCleaned(text: string, locale: string, decimals: number): Read & { system: NumberingSystem } {
  const { decimal, group } = localeMarks(locale);
  let system: NumberingSystem = 'latn';
  let seenDigit = false;
  let whole = '';
  let fraction: string | null = null;
  let groupMark: string | null = null;
  const groups: string[] = [];
  const refuse = (problem: AmountProblem) => ({ ok: false as const, problem, system });
  for (const char of text) {
    const digit = digitOf(char);
    if (digit) {
      // One number is written in one script: '1٥' is two people's typing, not a number.
      if (seenDigit && digit.system !== system) return refuse('notNumber');
      system = digit.system;
      seenDigit = true;
      if (fraction === null) whole += String(digit.value);
      else fraction += String(digit.value);
    } else if (char === decimal || char === ARABIC_DECIMAL) {
      // A second decimal mark: the other convention's grouping ('1.000.000'), or no number at all ('12.5.3').
      if (fraction !== null) return refuse(groupedBy(text, char) ? 'ambiguous' : 'notNumber');
      fraction = '';
    } else if (char === group || char === ARABIC_GROUP || char === ' ') {
      // A group mark after the decimals ('1.000,5') or two kinds of them: the other convention, or no number.
      if (fraction !== null || (groupMark !== null && groupMark !== char)) return refuse('ambiguous');
      groupMark = char;
      groups.push(whole);
      whole = '';
    } else if (char === '.' || char === ',' || char === ARABIC_COMMA) {
      // The other convention's decimal mark (a language whose decimal mark is not '.').
      return refuse('ambiguous');
    } else {
      return refuse('notNumber');
    }
  }
  if (!seenDigit) return refuse('notNumber');
  if (groupMark !== null && !wellGrouped([...groups, whole])) return refuse('ambiguous');
  const digits = (groups.join('') + whole).replace(/^0+(?=\d)/, '') || '0';
  if (fraction !== null && fraction.length > decimals) return refuse('decimals');
  const value = fraction ? `${digits}.${fraction}` : digits;
  // A second opinion: where the locale-aware parser reads the same text as another number (on Arabic-Indic keyboards
  // it takes ',' for the decimal mark and '.' for a group), the text means two things to two readers. Before it has
  // loaded, the texts it would read that way (Arabic-Indic digits with an ASCII mark) are refused alike.
  const parser = parserFor(locale, system);
  const second = parser ? parser.parse(text) : system === 'arab' && /[.,]/.test(text) ? NaN : Number(value);
  if (!parser && Number.isNaN(second)) return refuse('ambiguous');
  if (!Number.isNaN(second) && second !== Number(value)) return refuse('ambiguous');
  return { ok: true, value, system };
}

/**
 * Reads what a person typed or pasted into a decimal field, in the app's language `locale` (an Intl tag: 'en',
 * 'ja', 'ar', 'hi'…), with at most `decimals` digits after the decimal mark.
 *
 * Read: digits of ASCII, Arabic-Indic, Extended Arabic-Indic, Devanagari, Thai and full-width (one script per
 * number); the language's decimal mark and the Arabic one (٫); groups of digits split by the language's group mark,
 * the Arabic one (٬) or spaces (no-break, narrow no-break, thin), grouped by three or the Indian way. Refused, never
 * guessed: a text two conventions read differently ('1,5', '1.000.000,5'), one the library's parser reads as another
 * number, and one holding an invisible or direction-changing character (Unicode's format characters) that could show
 * its digits in another order than they are read: a direction override, embedding or isolate anywhere, any such
 * character inside the number. Direction marks around it (a number copied from Arabic text) are read past. Pure: no
 * I/O, throws nothing.
 */
export function readAmount(typed: string, locale: string, decimals = 8): AmountReading {
  // NFKC writes full-width digits and marks in ASCII and every kind of space as a space.
  // Direction marks around the number (as a number copied from Arabic text carries them) change nothing of how its
  // digits show; a direction override, embedding or isolate anywhere, or any invisible character inside, can.
  const spaced = typed.normalize('NFKC').replace(/\s/g, ' ');
  const text = spaced.replace(/^[\p{Cf} ]+|[\p{Cf} ]+$/gu, '');
  if (DIRECTION_CONTROLS.test(spaced) || /\p{Cf}/u.test(text))
    return { ok: false, problem: 'hidden', unfinished: false, system: 'latn' };
  if (!text) return { ok: true, value: '' };
  const read = readCleaned(text, locale, decimals);
  if (read.ok) return { ok: true, value: read.value };
  // Typing on (at most three more digits) could still make it a number: '1,' '1,00' '٫'.
  const zero = zeroOf(read.system);
  const unfinished = [1, 2, 3].some((count) => readCleaned(text + zero.repeat(count), locale, decimals).ok);
  return { ok: false, problem: read.problem, unfinished, system: read.system };
}

/**
 * 1234.5 as `locale` writes it in the digits of `system`, with `decimals` (at most 2) decimals: "1,234.50",
 * "١٬٢٣٤٫٥٠", "1,234.50" in Devanagari digits… — the example a refusal of a typed number gives.
 */
export function amountExample(locale: string, system: NumberingSystem, decimals: number): string {
  const digits = Math.min(2, decimals);
  return new Intl.NumberFormat(`${locale}-u-nu-${system}`, {
    minimumFractionDigits: digits,
    maximumFractionDigits: digits,
  }).format(1234.5);
}

/**
 * The plain ASCII decimal a typed text reads as, or the text unchanged when it reads as none: for forms whose own
 * check (or the server's) then refuses it with its message (the operator console, the chart's parameters).
 */
export function readOrKeep(typed: string, locale: string, decimals = 8): string {
  const read = readAmount(typed, locale, decimals);
  return read.ok ? read.value : typed;
}
