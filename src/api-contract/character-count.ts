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

/**
 * The longest start of `text` that is whole characters as a reader counts them (characterCount's) and at most `units`
 * UTF-16 code units: never half an emoji (a lone surrogate, which no UTF-8 text or JSON store holds) nor a conjunct or
 * a Thai syllable without its last part. Raises a ReferenceError where the browser has no Intl.Segmenter.
 */
export function startWithin(text: string, units: number): string {
  if (text.length <= units) return text;
  graphemes ??= new Intl.Segmenter(undefined, { granularity: 'grapheme' });
  let end = 0;
  for (const { index, segment } of graphemes.segment(text)) {
    if (index + segment.length > units) break;
    end = index + segment.length;
  }
  return text.slice(0, end);
}
