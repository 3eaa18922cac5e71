// A short label that may wrap, wrapped only between words. Japanese and Chinese write words without spaces, and a
// browser breaks their lines between any two characters: a home shortcut's "コントラクト" came out as "コントラク" over
// "ト". Here the words are found by the browser's own word segmentation (Intl.Segmenter, the Unicode text
// segmentation algorithm with the language's dictionary) and a line-break opportunity (<wbr>) stands between them;
// the label's CSS keeps CJK words whole (`word-break: keep-all`) and breaks only there, or anywhere as a last resort
// when a single word is wider than its box.
import { Fragment } from 'react';
import { useLingui } from '@lingui/react';
import { intlLocale } from '../lib/i18n.ts';
import { isLocale } from '../lib/locale-pick.ts';
import { formatterOnce } from '../lib/formatter-once.ts';
import { FALLBACK_LOCALE } from '../api-contract/constants.ts';

/**
 * `text` (a translated label) with <wbr> between its words in the app's language; as it is where the browser has no
 * Intl.Segmenter (then the label wraps as the browser would).
 */
export function WordBreaks({ text }: { text: string }) {
  const { i18n } = useLingui();
  if (typeof Intl.Segmenter !== 'function') return <>{text}</>;
  const locale = intlLocale(isLocale(i18n.locale) ? i18n.locale : FALLBACK_LOCALE);
  const segmenter = formatterOnce(`words:${locale}`, () => new Intl.Segmenter(locale, { granularity: 'word' }));
  const words = [...segmenter.segment(text)].map(({ segment }) => segment);
  return (
    <>
      {words.map((word, index) => (
        <Fragment key={index}>
          {index > 0 && <wbr />}
          {word}
        </Fragment>
      ))}
    </>
  );
}
