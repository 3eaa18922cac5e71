// The options' risk figure as the API contract computes its percent and the option page writes it: one decimal, half
// up, none without traders; the day a UTC date in the app's language, the same wherever the device is.
import { afterEach, describe, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import { riskPercent } from '../../src/api-contract/risk.ts';
import { formatRiskDay, formatRiskPercent } from '../../src/features/options/risk-format.ts';

afterEach(() => i18n.loadAndActivate({ locale: 'en', messages: {} }));

describe('riskPercent', () => {
  it('is losers of traders in percent, rounded half up to one decimal', () => {
    expect(riskPercent(2, 6)).toBe('33.3');
    expect(riskPercent(3, 7)).toBe('42.9');
    expect(riskPercent(2, 3)).toBe('66.7');
    expect(riskPercent(1, 16)).toBe('6.3'); // 6.25
    expect(riskPercent(1, 8)).toBe('12.5');
    expect(riskPercent(0, 5)).toBe('0.0');
    expect(riskPercent(5, 5)).toBe('100.0');
    expect(riskPercent(777, 1000)).toBe('77.7');
  });

  it('is no figure at all when no one traded, never 0 %', () => {
    expect(riskPercent(0, 0)).toBeNull();
  });
});

describe('the figure on screen', () => {
  it('writes the percent with its one decimal, in Latin digits', () => {
    expect(formatRiskPercent('64.3')).toBe('64.3');
    expect(formatRiskPercent('100.0')).toBe('100.0');
    i18n.loadAndActivate({ locale: 'ar', messages: {} });
    expect(formatRiskPercent('64.3')).toMatch(/^64.3$/u);
  });

  it('writes the UTC day as a date of the language, not shifted by the time zone', () => {
    expect(formatRiskDay('2026-12-23')).toBe('12/23/2026');
    expect(formatRiskDay('2026-01-01')).toBe('01/01/2026');
    // On a device west of UTC, the day's start is still the evening before there.
    const zone = process.env.TZ;
    process.env.TZ = 'America/Los_Angeles';
    try {
      expect(new Date('2026-12-23T00:00:00Z').getDate()).toBe(22);
      expect(formatRiskDay('2026-12-23')).toBe('12/23/2026');
    } finally {
      if (zone === undefined) delete process.env.TZ;
      else process.env.TZ = zone;
    }
    i18n.loadAndActivate({ locale: 'zh', messages: {} });
    expect(formatRiskDay('2026-12-23')).toBe('2026/12/23');
    i18n.loadAndActivate({ locale: 'th', messages: {} });
    expect(formatRiskDay('2026-12-23')).toBe('23/12/2569');
  });
});
