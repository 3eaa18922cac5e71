// Candles of a coin for the compact chart (one minute unless a time frame is given): the recorded
// ones from the server, and the last one kept live from the price stream.
import { useEffect, useState } from 'react';
import { klines, type Candle } from '../api-contract/markets.ts';
import { FRAME_SECONDS, aggregateCandles, applyTick, frameSource, type Frame } from './candles.ts';
import { api } from './api.ts';
import { subscribePrices } from './prices.ts';

const CANDLE_COUNT = 120;
export function useLiveCandles(code: string, frame: Frame = '1m'): { candles: readonly Candle[]; failed: boolean } {
  const [candles, setCandles] = useState<readonly Candle[]>([]);
  const [failed, setFailed] = useState(false);

  useEffect(() => {
    let current = true;
    setCandles([]);
    setFailed(false);
    const { period, per } = frameSource(frame);
    const seconds = FRAME_SECONDS[frame];
    api(klines, { code, period, limit: String(CANDLE_COUNT * per) }, { loading: false })
      .then(({ lists }) => current && setCandles(per > 1 ? aggregateCandles(lists, seconds) : lists))
      .catch(() => current && setFailed(true));
    const release = subscribePrices((ticks) => {
      for (const tick of ticks) if (tick.code === code) setCandles((previous) => applyTick(previous, tick, seconds));
    });
    return () => {
      current = false;
      release();
    };
  }, [code, frame]);

  return { candles, failed };
}
