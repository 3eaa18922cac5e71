// The chart's time frames as the buttons name them, for every chart that offers them (the coin page, the live quote's
// chart with its tools).
import { msg } from '@lingui/core/macro';
import type { MessageDescriptor } from '@lingui/core';
import type { Frame } from '../lib/candles.ts';

export const FRAME_LABELS: Record<Frame, MessageDescriptor> = {
  '1m': msg({ message: '1m', context: 'chart period: one minute' }),
  '5m': msg({ message: '5m', context: 'chart period: five minutes' }),
  '15m': msg({ message: '15m', context: 'chart period: fifteen minutes' }),
  '1h': msg({ message: '1h', context: 'chart period: one hour' }),
  '4h': msg({ message: '4h', context: 'chart period: four hours' }),
  '1d': msg({ message: '1d', context: 'chart period: one day' }),
};
