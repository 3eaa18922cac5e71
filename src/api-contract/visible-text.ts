// Text a person names things with (a nickname, a payee's label or a wallet's alias, a real name, the
// anti-phishing code, a chat message) must read as it is held: whoever sees it later — the customer,
// an operator, a mail — must not be shown something else. One rule for all of them, applied by the
// form and the server alike through the API contract's schemas:
// - Unicode's composed form (NFC), so 'é' typed as one character or as e + accent is one value;
// - no invisible or direction-changing characters: Unicode's default-ignorable code points (zero-width
//   characters, Hangul fillers, variation selectors, tag characters, the soft hyphen, the combining
//   grapheme joiner), format characters (bidi embeddings, overrides and isolates, the marks LRM, RLM,
//   ALM) and control characters, and the blank braille pattern that is used as a filler;
// - no private-use character (Unicode's Private Use areas: what it shows is each device's or font's own choice, an
//   apple on one phone, an empty box on another, so two readers would see two texts);
// - no letter under a tower of combining marks: at most 30 of them in a row (Unicode's Stream-Safe Text Format);
// - a value with nothing to see (only spaces and such characters) counts as empty.
// Two standard uses of joiners stay allowed, because they change only how visible characters join:
// inside an emoji sequence (ZWJ between emoji, the emoji variation selectors, a keycap, a subdivision flag's tags;
// Unicode Technical Standard 51), and ZWJ / ZWNJ right after a Devanagari virama (a half form, The Unicode Standard's
// Devanagari chapter). Letters and the combining marks of every script (Thai, Devanagari, Arabic) are kept.
// Wherever such a text stands inside other text it is shown isolated: <bdi> in the app and the
// console, `isolate()` in plain text (mails, station messages).
import * as v from 'valibot';
import type { MessageDescriptor } from '@lingui/core';
import { texts } from './texts.ts';
import { HIDDEN, HIDDEN_CLASS } from './hidden-characters.ts';
import { characterCount } from './character-count.ts';

export { characterCount };
import { REAL_NAME_MAX, unitsFor } from './constants.ts';

const HIDDEN_ALL = new RegExp(HIDDEN.source, 'gu');
/** What is blank to the eye: spaces and hidden characters. */
const BLANK_ALL = new RegExp(`[\\s\\p{Zs}${HIDDEN_CLASS}]`, 'gu');

// One emoji: a subdivision flag (the black flag U+1F3F4, the subdivision's id in tag letters and digits, 3 to 7 of
// them, and the cancel tag: Unicode Technical Standard 51's emoji tag sequences, whose only valid base is that flag),
// a pictograph with its presentation selector or skin tone, or a keycap. Tag characters anywhere else hide text.
const EMOJI =
  '(?:\\u{1F3F4}[\\u{E0030}-\\u{E0039}\\u{E0061}-\\u{E007A}]{3,7}\\u{E007F}|' +
  '\\p{Extended_Pictographic}[\\uFE0E\\uFE0F]?\\p{Emoji_Modifier}?|[#*0-9]\\uFE0F?\\u20E3)';
/** A whole emoji sequence: emoji joined by ZWJ (Unicode Technical Standard 51). */
const EMOJI_SEQUENCE = new RegExp(`${EMOJI}(?:\\u200D${EMOJI})*`, 'gu');
/** ZWJ or ZWNJ after a Devanagari virama and before a consonant: it picks a half form, it hides nothing. */
const DEVANAGARI_JOINER = /\u094D[\u200C\u200D](?=[\u0915-\u0939\u0958-\u095F\u0978-\u097F])/gu;

/** Spaces of every width: one space inside a line (U+FEFF is not one here: it is hidden; a tab is a control). */
const SPACES = /\p{Zs}+/gu;
/** Spaces and line breaks at either end: left out, as a form does. */
const OUTER = '[\\t\\n\\v\\f\\r\\p{Zs}\\u0085\\u2028\\u2029]+';
const OUTER_SPACES = new RegExp(`^${OUTER}|${OUTER}$`, 'gu');
const LINE_BREAKS = /\r\n?|[\u0085\u2028\u2029]/gu;

/** The characters of `text` nobody sees or that turn what follows around; the allowed joiners left out. */
export function hiddenCharacters(text: string, { lines = false } = {}): string[] {
  const rest = text.replace(EMOJI_SEQUENCE, 'x').replace(DEVANAGARI_JOINER, '\u094D');
  const found = rest.match(HIDDEN_ALL) ?? [];
  return lines ? found.filter((char) => char !== '\n' && char !== '\t') : found;
}

/**
 * The most non-starters (characters of non-zero canonical combining class: accents, vowel and tone marks, a virama)
 * that may follow one another: Unicode's Stream-Safe Text Format (Unicode Standard Annex 15). Real text of every script
 * stacks a few (a Thai tone over a vowel, Arabic's shadda with its vowel); more draw a tower over the lines around.
 */
export const MAX_NON_STARTERS = 30;

const MARK = /\p{M}/u;
/** Whether each mark met is a non-starter, by code point (at most the few thousand marks Unicode has). */
const nonStarterByMark = new Map<string, boolean>();
/**
 * Whether `char`, one code point of a fully decomposed text, has a non-zero canonical combining class. JavaScript reads
 * no such class, so the engine's own normalization tells it: canonical ordering puts U+0316 (class 220) before U+0301
 * (class 230) only when nothing between them is a starter, which blocks the reordering. Only marks can be non-starters.
 */
function isNonStarter(char: string): boolean {
  if (!MARK.test(char)) return false;
  let known = nonStarterByMark.get(char);
  if (known === undefined) {
    const ordered = `\u0301${char}\u0316`.normalize('NFD');
    known = ordered.indexOf('\u0316') < ordered.indexOf('\u0301');
    nonStarterByMark.set(char, known);
  }
  return known;
}

/**
 * True when `text` stacks more than MAX_NON_STARTERS non-starters in a row once decomposed (NFKD, as the Stream-Safe
 * Text Format counts them): a letter under a tower of marks that draws over what is around it.
 */
export function stackedMarks(text: string): boolean {
  let run = 0;
  for (const char of text.normalize('NFKD')) {
    run = isNonStarter(char) ? run + 1 : 0;
    if (run > MAX_NON_STARTERS) return true;
  }
  return false;
}

/** A character of Unicode's Private Use areas (general category Co: U+E000–U+F8FF and planes 15 and 16). */
const PRIVATE_USE = /\p{Co}/u;

/** True when `text` holds a private-use character (PRIVATE_USE): each device draws it as its fonts choose. */
export const holdsPrivateUse = (text: string) => PRIVATE_USE.test(text);

/** True when `text` is not empty but shows nothing: only spaces and hidden characters. */
export const isBlankToTheEye = (text: string) => text !== '' && text.replace(BLANK_ALL, '') === '';

/** One line as typed: composed (NFC), every run of spaces one space, no space at either end (a line break inside
 * is refused by the rule, not joined). */
export const tidyLine = (text: string) => text.normalize('NFC').replace(SPACES, ' ').replace(OUTER_SPACES, '');

/** Lines as typed (a chat message): composed (NFC), line breaks as '\n', no blank space at either end. */
export const tidyLines = (text: string) => text.normalize('NFC').replace(LINE_BREAKS, '\n').replace(OUTER_SPACES, '');

/**
 * The rule for a free-text field a person names things with: a string, tidied (`tidyLine`, or
 * `tidyLines` with `lines`), refused with `blank` when it shows nothing, with "Please remove
 * invisible or direction-changing characters!" when it holds one, and with texts.stackedMarks when it stacks more than
 * MAX_NON_STARTERS marks in a row (`stackedMarks`), and with texts.privateUseCharacters when it holds a private-use
 * character (`holdsPrivateUse`). An empty value passes: whether the
 * field may be empty is the field's own rule, checked after this one.
 * `blank`: the field's text for a missing value; null for a field that may be empty (a value that only
 * looks empty is then refused as holding invisible characters).
 */
export const visibleText = /*#__NO_SIDE_EFFECTS__*/ (
  blank: MessageDescriptor | null,
  { lines = false }: { lines?: boolean } = {},
) =>
  v.pipe(
    v.string((blank ?? texts.invalidRequest).id),
    v.transform(lines ? tidyLines : tidyLine),
    v.check((text) => !isBlankToTheEye(text), (blank ?? texts.hiddenCharacters).id),
    v.check((text) => hiddenCharacters(text, { lines }).length === 0, texts.hiddenCharacters.id),
    v.check((text) => !holdsPrivateUse(text), texts.privateUseCharacters.id),
    v.check((text) => !stackedMarks(text), texts.stackedMarks.id),
  );

/**
 * A length rule in characters as a reader counts them (`characterCount`): at most `max` of them, and at most
 * `unitsFor(max)` code units; both refused with `message` (a message id).
 */
export const maxCharacters = /*#__NO_SIDE_EFFECTS__*/ (max: number, message: string) =>
  v.check<string, string>((text) => text.length <= unitsFor(max) && characterCount(text) <= max, message);

/**
 * What only lengthens, repeats or sits on another character: Unicode's modifier letters (\\p{Lm}: the Arabic tatweel,
 * Thai MAI YAMOK ๆ, the kana prolonged sound mark ー, the iteration mark 々) and combining marks, with spaces between.
 */
const FILLERS_ALL = /[\p{Lm}\p{M}\p{Zs}]/gu;

/** True when `text` is not empty and holds nothing but fillers and marks (FILLERS_ALL): it names nobody. */
export const onlyFillers = (text: string) => text !== '' && text.replace(FILLERS_ALL, '') === '';

/**
 * A name that must be given: `visibleText(missing)`, `missing` when it is empty, and texts.nameOnlyFillers when it is
 * made only of fillers and marks (`onlyFillers`: 'ـــ', 'ๆๆๆ', accents on nothing).
 */
export const visibleName = /*#__NO_SIDE_EFFECTS__*/ (missing: MessageDescriptor) =>
  v.pipe(
    visibleText(missing),
    v.nonEmpty(missing.id),
    v.check((text) => !onlyFillers(text), texts.nameOnlyFillers.id),
  );

/**
 * What a person's name is written with: letters of any script (\\p{L}: Thai, Devanagari, Arabic, CJK, kana's
 * prolonged sound mark) with their combining marks, spaces, and the marks names use between letters — apostrophes
 * (O'Brien, the typographic one and the modifier letter), hyphens, full stops, and the middle dots that join the parts
 * of a transliterated name in Chinese (·) and Japanese (・); the joiners visibleText leaves after a Devanagari virama.
 * At least one letter that is not a modifier letter (the fillers of `onlyFillers`). No digits, emoji or symbols: a bank
 * pays out to, and an identity document names, a person.
 */
const PERSON_NAME = /^(?=.*(?!\p{Lm})\p{L})[\p{L}\p{M}\s'\u2019\u02bc.\-\u00b7\u30fb\u2027\u200c\u200d]+$/u;

/**
 * A person's real name (an identity certification's, a bank card's holder): given (`missing` when not), visible text,
 * at most REAL_NAME_MAX characters as a reader counts them and written as PERSON_NAME says; refused otherwise with
 * texts.realNameFormat, which states the rule.
 */
export const personName = /*#__NO_SIDE_EFFECTS__*/ (missing: MessageDescriptor) =>
  v.pipe(
    visibleName(missing),
    maxCharacters(REAL_NAME_MAX, texts.realNameFormat.id),
    v.regex(PERSON_NAME, texts.realNameFormat.id),
  );

/** Unicode's FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE (Unicode Standard Annex 9). */
const FSI = '\u2068';
const PDI = '\u2069';

/**
 * A customer's text set into plain text (a mail's text, a station message): between FSI and PDI, so
 * it takes its own direction and leaves the direction of what follows alone, as <bdi> does in HTML.
 */
export const isolate = (text: string) => `${FSI}${text}${PDI}`;

/** The text inside `isolate()`, or `text` as it is when it is not isolated. */
export const withoutIsolate = (text: string) =>
  text.startsWith(FSI) && text.endsWith(PDI) ? text.slice(FSI.length, -PDI.length) : text;
