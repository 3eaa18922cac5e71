// Which colour says a price rose: green (rises green, falls red, as in most markets) or red (rises red, falls green,
// as the stock markets of mainland China and Japan show them, and their customers read a quote at a glance). Settings
// holds the customer's choice; until they choose, the app's language says (Chinese and Japanese: red). Apart from
// price-colors.ts so index.html's picking script (src/app/first-screen-boot.ts) can mark `<html>` before the first
// paint, from the first screen's hint, long before the stores load.
import type { Locale } from '../api-contract/constants.ts';

/** The two conventions: the colour of a rise (a fall takes the other). */
export type PriceColors = 'green-up' | 'red-up';

export const PRICE_COLOR_CHOICES: readonly PriceColors[] = ['green-up', 'red-up'];
/** The IndexedDB key of the choice (storage.ts), beside the theme's. */
export const PRICE_COLORS_KEY = 'priceColors';

/**
 * The languages whose customers read red as a rise: Chinese (the mainland's exchanges show rises red) and Japanese
 * (Japan's quote boards do too). The others (English, Thai, Arabic, Hindi) read green as a rise.
 */
const RED_UP_LANGUAGES: readonly Locale[] = ['zh', 'jp'];

/** The convention for a stored choice (anything else counts as none) in the app's language. */
export const resolvePriceColors = (choice: unknown, locale: Locale): PriceColors =>
  choice === 'green-up' || choice === 'red-up' ? choice : RED_UP_LANGUAGES.includes(locale) ? 'red-up' : 'green-up';

/**
 * Marks `<html data-rise>` with the colour of a rise (`green` or `red`); the style sheets' rise and fall roles
 * (src/ui/ui.css `--rise`, `--fall` and their fills and tints) key on it.
 */
export function applyPriceColors(root: HTMLElement, colors: PriceColors): void {
  root.dataset.rise = colors === 'red-up' ? 'red' : 'green';
}
