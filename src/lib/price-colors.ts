// The price colours: Settings' choice (green or red for a rise) kept on the device like the theme, and the
// convention painted now. Until the customer chooses, the app's language says (price-colors-pick.ts). index.html's
// picking script applied it before the first paint; this keeps it applied when the choice changes (no reload).
import { proxy, subscribe } from 'valtio/vanilla';
import type { Locale } from '../api-contract/constants.ts';
import { persistedStore } from './storage.ts';
import { PRICE_COLORS_KEY, applyPriceColors, resolvePriceColors, type PriceColors } from './price-colors-pick.ts';

export type { PriceColors };

/** The stored choice; null until the customer picks one (the language's convention holds until then). */
export const priceColorsChoice = persistedStore(PRICE_COLORS_KEY, { colors: null as PriceColors | null });

/** The convention painted now (canvas drawings, which no style sheet reaches, read it). */
export const priceColors = proxy({ colors: 'green-up' as PriceColors });

/** Applies the convention now (the stores are loaded) for the app's language, and again when the choice changes. */
export function keepPriceColors(locale: Locale): void {
  const apply = () => {
    priceColors.colors = resolvePriceColors(priceColorsChoice.colors, locale);
    applyPriceColors(document.documentElement, priceColors.colors);
  };
  apply();
  subscribe(priceColorsChoice, apply);
}

/** Stores a choice; the page repaints at once. */
export function choosePriceColors(colors: PriceColors): void {
  priceColorsChoice.colors = colors;
}
