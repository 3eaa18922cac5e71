// A settled option's ticks: the recorded index ticks around its start and around its end on a small
// canvas chart, and listed with their time (to the millisecond where a tick has one) and the exchanges'
// prices each was made of, the deciding tick marked in both, so the customer sees exactly which tick
// decided. Its code, its stylesheet and its call come in a chunk of their own, loaded only for a
// settled order; the answer is kept for offline reading.
import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Trans } from '@lingui/react/macro';
import { exchangeLabel } from '../../api-contract/markets.ts';
import type { OptionOrder } from '../../api-contract/options.ts';
import { settlementTicks, type SettlementTicks, type TickWindow } from '../../api-contract/settlement-ticks.ts';
import { api, errorText } from '../../lib/api.ts';
import { decimalsOf, formatPrice, formatTime } from '../../lib/format.ts';
import { appearance } from '../../lib/theme.ts';
import './settlement-ticks.css';

const CHART_HEIGHT = 72;
const PAD = 8;

/** HH:MM:SS, with .mmm when some tick of the window has a part of a second. */
function tickTime(at: string, subSecond: boolean): string {
  const ms = new Date(at).getUTCMilliseconds();
  return subSecond ? `${formatTime(at)}.${String(ms).padStart(3, '0')}` : formatTime(at);
}

/**
 * The ticks as a line with a dot each, the deciding one larger and on a vertical mark, and `reference`
 * (the start price, on the end's chart) as a dashed line. Pixels only: the prices shown are the list's.
 */
function drawTicks(canvas: HTMLCanvasElement, ticks: TickWindow['ticks'], reference: string | null) {
  const context = canvas.getContext('2d');
  if (!context) return;
  const ratio = devicePixelRatio || 1;
  const width = canvas.clientWidth;
  [canvas.width, canvas.height] = [Math.round(width * ratio), Math.round(CHART_HEIGHT * ratio)];
  context.setTransform(ratio, 0, 0, ratio, 0, 0);
  const style = getComputedStyle(canvas);
  const [theme, muted, line] = ['--theme-dark', '--muted', '--line'].map((name) => style.getPropertyValue(name).trim());
  const values = ticks.map((tick) => Number(tick.price));
  const all = reference === null ? values : [...values, Number(reference)];
  const [low, high] = [Math.min(...all), Math.max(...all)];
  const x = (i: number) =>
    PAD + (ticks.length > 1 ? (i * (width - 2 * PAD)) / (ticks.length - 1) : (width - 2 * PAD) / 2);
  const y = (value: number) =>
    high === low ? CHART_HEIGHT / 2 : PAD + ((high - value) * (CHART_HEIGHT - 2 * PAD)) / (high - low);
  if (reference !== null) {
    context.strokeStyle = muted || '#5f6b7a';
    context.setLineDash([4, 3]);
    context.beginPath();
    context.moveTo(0, y(Number(reference)));
    context.lineTo(width, y(Number(reference)));
    context.stroke();
  }
  const decided = ticks.findIndex((tick) => tick.deciding);
  if (decided >= 0) {
    context.strokeStyle = line || '#e6e9ef';
    context.setLineDash([2, 2]);
    context.beginPath();
    context.moveTo(x(decided), 0);
    context.lineTo(x(decided), CHART_HEIGHT);
    context.stroke();
  }
  context.setLineDash([]);
  context.strokeStyle = muted || '#5f6b7a';
  context.lineWidth = 1.5;
  context.beginPath();
  values.forEach((value, i) => (i ? context.lineTo(x(i), y(value)) : context.moveTo(x(i), y(value))));
  context.stroke();
  values.forEach((value, i) => {
    context.fillStyle = i === decided ? theme || '#0072a3' : muted || '#5f6b7a';
    context.beginPath();
    context.arc(x(i), y(value), i === decided ? 5 : 2.5, 0, 2 * Math.PI);
    context.fill();
  });
}

function TickChart({
  ticks,
  reference,
  title,
}: {
  ticks: TickWindow['ticks'];
  reference: string | null;
  title: string;
}) {
  const canvas = useRef<HTMLCanvasElement>(null);
  // Its colours are the theme's (read from the style sheet's variables): a change of theme redraws it.
  const { theme } = useSnapshot(appearance);
  useEffect(() => {
    const element = canvas.current!;
    const resize = new ResizeObserver(() => drawTicks(element, ticks, reference));
    resize.observe(element);
    return () => resize.disconnect();
  }, [ticks, reference, theme]);
  return <canvas ref={canvas} className="ticks-chart" role="img" aria-labelledby={title} />;
}

/** The ticks oldest first: time, price, the exchanges' prices, the deciding one marked. */
export function TickList({ window: { ticks }, decimals }: { window: TickWindow; decimals: number }) {
  const subSecond = ticks.some((tick) => new Date(tick.at).getUTCMilliseconds() !== 0);
  // Every price of the window with as many digits as its longest, so they line up and compare at a glance.
  const places = Math.max(decimals, ...ticks.map((tick) => decimalsOf(tick.price)));
  return (
    <ol className="ticks-list">
      {ticks.map((tick) => (
        <li key={tick.at} className={tick.deciding ? 'deciding' : undefined} data-deciding={tick.deciding || undefined}>
          <div>
            <span className="opt-num">{tickTime(tick.at, subSecond)}</span>
            {tick.deciding && (
              <span className="ticks-tag">
                <Trans>Deciding tick</Trans>
              </span>
            )}
            <strong className="opt-num">{formatPrice(tick.price, places)}</strong>
          </div>
          {tick.constituents?.length ? (
            <small>
              {tick.constituents
                .map(
                  ({ exchange, price }) =>
                    `${exchangeLabel(exchange)} ${formatPrice(price, Math.max(decimals, decimalsOf(price)))}`,
                )
                .join(' · ')}
            </small>
          ) : null}
        </li>
      ))}
    </ol>
  );
}

export default function SettlementTicksCard({ order, decimals }: { order: Readonly<OptionOrder>; decimals: number }) {
  const [answer, setAnswer] = useState<SettlementTicks | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  useEffect(() => {
    api(settlementTicks, { id: String(order.id) }, { loading: false }).then(setAnswer, (error) =>
      setFailure(errorText(error)),
    );
  }, [order.id]);
  if (!answer) return failure ? <p className="muted opt-note">{failure}</p> : null;
  const startLabel = <Trans>Ticks around the start</Trans>;
  const endLabel = <Trans>Ticks around the end</Trans>;
  return (
    <section className="card ticks-card" data-ticks={order.id}>
      {(
        [
          ['start', startLabel, answer.start, null],
          ['end', endLabel, answer.end, order.start_price],
        ] as const
      ).map(([key, title, window, reference]) => (
        <div key={key} data-window={key}>
          <h3 id={`ticks-${key}`}>{title}</h3>
          <small className="muted">
            {!window.deciding_at ? (
              <Trans>No tick decided</Trans>
            ) : key === 'start' ? (
              <Trans>The first price recorded after your order</Trans>
            ) : (
              <Trans>The last price recorded at or before the end time</Trans>
            )}
          </small>
          {window.ticks.length > 0 && (
            <>
              <TickChart ticks={window.ticks} reference={reference} title={`ticks-${key}`} />
              {reference !== null && (
                <small className="ticks-legend" aria-hidden>
                  - - - <Trans>Start price</Trans>
                </small>
              )}
              <TickList window={window} decimals={decimals} />
            </>
          )}
        </div>
      ))}
    </section>
  );
}
