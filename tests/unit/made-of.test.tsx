// @vitest-environment jsdom
// What an index price was made of, as an order shows it: the median sentence, then each exchange's
// trade behind it (time and trade id) so a customer can find it in that exchange's trade history; a
// price recorded before trade ids were kept shows the sentence alone.
import { act, type ReactNode } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { expect, it } from 'vitest';
import { MadeOf } from '../../src/ui/MadeOf.tsx';
import { formatTime } from '../../src/lib/format.ts';
import { mountPoint } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const show = (node: ReactNode) => act(async () => view.root.render(<I18nProvider i18n={i18n}>{node}</I18nProvider>));
const at = '2026-11-26T08:15:30.250Z';

it('shows each exchange’s trade id beside its time, under the median of the prices', async () => {
  await show(
    <MadeOf
      constituents={[
        { exchange: 'binance', price: '97190.1', at, trade_id: '4181928374' },
        { exchange: 'kraken', price: '97192', at, trade_id: '91822' },
        { exchange: 'okx', price: '97190.83', at, trade_id: '512993847' },
      ]}
      decimals={2}
    />,
  );
  expect(view.container.querySelector('.made-of')!.textContent).toBe(
    'Median of Binance 97,190.10 · Kraken 97,192.00 · OKX 97,190.83',
  );
  expect([...view.container.querySelectorAll('.made-of-trade')].map((line) => line.textContent)).toEqual([
    `Binance ${formatTime(at)} · Trade ID 4181928374`,
    `Kraken ${formatTime(at)} · Trade ID 91822`,
    `OKX ${formatTime(at)} · Trade ID 512993847`,
  ]);
});

it('shows no trade line for a price recorded before trade ids were kept', async () => {
  await show(<MadeOf constituents={[{ exchange: 'okx', price: '97190.83', at }]} decimals={2} />);
  expect(view.container.querySelector('.made-of')!.textContent).toBe('Median of OKX 97,190.83');
  expect(view.container.querySelectorAll('.made-of-trade')).toHaveLength(0);
});
