// The user's display currency (baht, ฿, by default): its rate per USDT, fetched once per currency
// and kept on the device so money screens still show it offline.
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import Big from 'big.js';
import { currencyRate, type FiatRate } from '../api-contract/markets.ts';
import { DEFAULT_CURRENCY } from '../api-contract/constants.ts';
import { api } from './api.ts';
import { session } from './session.ts';
import { persistedStore } from './storage.ts';

export const fiatRates = persistedStore('fiat-rates', { byCode: {} as Record<string, FiatRate & { at: string }> });

/** Rates younger than this are not asked for again. */
const FRESH_MS = 10 * 60_000;
const asking = new Map<string, Promise<void>>();

async function loadRate(code: string): Promise<void> {
  const known = fiatRates.byCode[code];
  if (known && Date.now() - Date.parse(known.at) < FRESH_MS) return;
  const running = asking.get(code);
  if (running) return running;
  const request = api(currencyRate, { code }, { loading: false })
    .then((rate) => void (fiatRates.byCode[code] = { ...rate, at: new Date().toISOString() }))
    .catch(() => undefined) // offline or failing: the last known rate (or none) stays
    .finally(() => asking.delete(code));
  asking.set(code, request);
  return request;
}

/** The rate of the signed-in user's display currency, or null until it is known. */
export function useDisplayCurrency(): FiatRate | null {
  const { user } = useSnapshot(session);
  const code = user?.currency ?? DEFAULT_CURRENCY;
  const { byCode } = useSnapshot(fiatRates);
  useEffect(() => void loadRate(code), [code]);
  return byCode[code] ?? null;
}

/** A USDT amount in a fiat currency, rounded to 2 decimals (a display value, never stored). */
export function toFiat(usdt: string, rate: Pick<FiatRate, 'rate'>): string {
  return new Big(usdt).times(rate.rate).round(2, Big.roundHalfUp).toFixed(2);
}
