// @vitest-environment jsdom
// The colour of a rise: the customer's choice, else the language's convention; painted on <html> and in the chart.
import { describe, expect, it } from 'vitest';
import { LOCALES } from '../../src/api-contract/constants.ts';
import { applyPriceColors, resolvePriceColors } from '../../src/lib/price-colors-pick.ts';
import { choosePriceColors, keepPriceColors, priceColors, priceColorsChoice } from '../../src/lib/price-colors.ts';
import { CHART_PALETTES, chartPalette } from '../../src/ui/kline-draw.ts';

describe('which colour says a price rose (resolvePriceColors, applyPriceColors)', () => {
  it('until the customer chooses: red in Chinese and Japanese, green in the other languages', () => {
    const byLanguage = Object.fromEntries(LOCALES.map((locale) => [locale, resolvePriceColors(null, locale)]));
    expect(byLanguage).toEqual({
      en: 'green-up',
      zh: 'red-up',
      th: 'green-up',
      jp: 'red-up',
      ar: 'green-up',
      hi: 'green-up',
    });
    for (const unknown of [undefined, 'blue-up', 7, {}]) expect(resolvePriceColors(unknown, 'zh')).toBe('red-up');
  });

  it('a choice holds in every language', () => {
    for (const locale of LOCALES) {
      expect(resolvePriceColors('green-up', locale)).toBe('green-up');
      expect(resolvePriceColors('red-up', locale)).toBe('red-up');
    }
  });

  it('marks <html data-rise> with the colour of a rise', () => {
    applyPriceColors(document.documentElement, 'red-up');
    expect(document.documentElement.dataset.rise).toBe('red');
    applyPriceColors(document.documentElement, 'green-up');
    expect(document.documentElement.dataset.rise).toBe('green');
  });
});

describe('keeping them applied (keepPriceColors, choosePriceColors)', () => {
  it('paints the language’s convention, then the choice at once when the customer makes one', async () => {
    priceColorsChoice.colors = null;
    keepPriceColors('jp');
    expect(document.documentElement.dataset.rise).toBe('red');
    expect(priceColors.colors).toBe('red-up');
    choosePriceColors('green-up');
    await expect.poll(() => document.documentElement.dataset.rise).toBe('green');
    expect(priceColors.colors).toBe('green-up');
  });
});

describe('the K-line chart in the price colours (chartPalette)', () => {
  it('draws rises in the rise’s colour and falls in the other, in both themes', () => {
    for (const theme of ['light', 'dark'] as const) {
      const green = CHART_PALETTES[theme];
      expect(chartPalette(theme, 'green-up')).toEqual(green);
      const red = chartPalette(theme, 'red-up');
      expect([red.up, red.down, red.upLabel, red.downLabel, red.upVolume, red.downVolume]).toEqual([
        green.down,
        green.up,
        green.downLabel,
        green.upLabel,
        green.downVolume,
        green.upVolume,
      ]);
      // The rest of the palette is the theme's.
      expect({ ...red, up: 0, down: 0, upLabel: 0, downLabel: 0, upVolume: 0, downVolume: 0 }).toEqual({
        ...green,
        up: 0,
        down: 0,
        upLabel: 0,
        downLabel: 0,
        upVolume: 0,
        downVolume: 0,
      });
    }
  });
});
