// One-minute candles of a coin for the compact chart: the recorded ones from the server, and the
// last one kept live from the price stream.
import { useEffect, useState } from 'react';
import { klines, type Candle } from '../contract/markets.ts';
import { applyTick } from './candles.ts';
import { api } from './api.ts';
import { subscribePrices } from './prices.ts';

const CANDLE_COUNT = 120;
export function useLiveCandles(code: string): { candles: readonly Candle[]; failed: boolean } {
  const [candles, setCandles] = useState<readonly Candle[]>([]);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    setCandles([]);
    setFailed(false);
    api(klines, { code, period: '1m', limit: String(CANDLE_COUNT) }, { loading: false })
      .then(({ lists }) => current && setCandles(lists))
      .catch(() => current && setFailed(true));
    const release = subscribePrices((ticks) => {
      for (const tick of ticks) if (tick.code === code) setCandles((previous) => applyTick(previous, tick));
    });
    return () => {
      current = false;
      release();
    };
  }, [code]);

  return { candles, failed };
}
