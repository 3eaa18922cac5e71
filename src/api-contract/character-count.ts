// Counting characters as a reader does, in a file of its own so the app's start chunk (its toasts) can count without
// carrying the text rules.

let graphemes: Intl.Segmenter | undefined;
/**
 * How many characters `text` has as a reader counts them: Unicode's extended grapheme clusters (Unicode Standard Annex
 * 29, through Intl.Segmenter), so a Thai syllable's marks, a Devanagari conjunct or an emoji sequence count once, where
 * `length` counts UTF-16 code units. Raises a ReferenceError where the browser has no Intl.Segmenter.
 */
export function characterCount(text: string): number {
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let count = 0;
  for (const _ of graphemes.segment(text)) count += 1;
  return count;
}
