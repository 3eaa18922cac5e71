// @vitest-environment jsdom
// A settled option's ticks as its details list them: each tick's time (to the millisecond when a tick of
// the window has a part of a second), its price and the exchanges' prices it was made of, the deciding
// tick marked and only it.
import { act, type ReactNode } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { expect, it } from 'vitest';
import { TickList } from '../../src/features/options/SettlementTicks.tsx';
import { formatTime } from '../../src/lib/format.ts';
import { mountPoint } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const view = mountPoint();
const show = (node: ReactNode) => act(async () => view.root.render(<I18nProvider i18n={i18n}>{node}</I18nProvider>));
const rows = () =>
  [...view.container.querySelectorAll('li')].map((row) => ({
    text: row.querySelector('div')!.textContent,
    made: row.querySelector('small')?.textContent ?? null,
    deciding: row.hasAttribute('data-deciding'),
  }));

it('lists each tick with its time to the millisecond, its price (as many digits as the longest) and constituents, the deciding one marked', async () => {
  const [before, deciding, after] = [
    '2026-11-26T08:15:29.000Z',
    '2026-11-26T08:15:30.250Z',
    '2026-11-26T08:15:31.000Z',
  ];
  await show(
    <TickList
      window={{
        deciding_at: deciding,
        ticks: [
          { price: '97190.1', at: before, constituents: null, deciding: false },
          {
            price: '97190.465',
            at: deciding,
            constituents: [
              { exchange: 'binance', price: '97190.1', at: before, trade_id: '1' },
              { exchange: 'okx', price: '97190.83', at: before },
            ],
            deciding: true,
          },
          { price: '97191', at: after, constituents: null, deciding: false },
        ],
      }}
      decimals={2}
    />,
  );
  expect(rows()).toEqual([
    { text: `${formatTime(before)}.00097,190.100`, made: null, deciding: false },
    {
      text: `${formatTime(deciding)}.250Deciding tick97,190.465`,
      made: 'Binance 97,190.10 · OKX 97,190.83',
      deciding: true,
    },
    { text: `${formatTime(after)}.00097,191.000`, made: null, deciding: false },
  ]);
});

it('shows whole seconds when every tick is on one', async () => {
  const at = '2026-11-26T08:15:30.000Z';
  await show(
    <TickList
      window={{ deciding_at: at, ticks: [{ price: '100', at, constituents: null, deciding: true }] }}
      decimals={2}
    />,
  );
  expect(rows()).toEqual([{ text: `${formatTime(at)}Deciding tick100.00`, made: null, deciding: true }]);
});
