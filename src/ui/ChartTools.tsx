// The chart's indicator switches (volume, MA, EMA, Bollinger bands) and their parameters. The
// choices live in chartSettings, kept on the device, so every chart shows them after a reload.
import { useState } from 'react';
import { useSnapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { chartSettings, parameter } from '../lib/chart-settings.ts';
import { currentLocale, intlLocale } from '../lib/i18n.ts';
import { readOrKeep } from '../lib/typed-amount.ts';
import './chart-tools.css';

/** A parameter field: the typed text stays while it is being typed; a valid number is applied at once. */
function ParamField(props: {
  label: string;
  value: number;
  apply: (value: number) => void;
  min: number;
  max: number;
  whole?: boolean;
}) {
  const [text, setText] = useState(String(props.value));
  return (
    <input
      aria-label={props.label}
      inputMode={props.whole === false ? 'decimal' : 'numeric'}
      value={text}
      onChange={(event) => {
        setText(event.target.value);
        const whole = props.whole ?? true;
        const typed = readOrKeep(event.target.value, intlLocale(currentLocale()), whole ? 0 : 8);
        const value = parameter(typed, NaN, props.min, props.max, whole);
        if (!Number.isNaN(value)) props.apply(value);
      }}
      onBlur={() => setText(String(props.value))}
    />
  );
}

export function ChartTools() {
  const { t } = useLingui();
  const { indicators } = useSnapshot(chartSettings);
  const [open, setOpen] = useState(false);
  const settings = chartSettings.indicators;
  const chip = (label: string, on: boolean, toggle: () => void) => (
    <button type="button" className="chart-chip" aria-pressed={on} onClick={toggle}>
      {label}
    </button>
  );
  return (
    <>
      <div className="chart-tools" role="group" aria-label={t`Indicators`}>
        {chip(t`Volume`, indicators.volume, () => (settings.volume = !settings.volume))}
        {chip('MA', indicators.ma.on, () => (settings.ma.on = !settings.ma.on))}
        {chip('EMA', indicators.ema.on, () => (settings.ema.on = !settings.ema.on))}
        {chip('BOLL', indicators.boll.on, () => (settings.boll.on = !settings.boll.on))}
        <button
          type="button"
          className="chart-chip chart-gear"
          aria-expanded={open}
          onClick={() => setOpen((value) => !value)}
        >
          <Trans>Settings</Trans>
        </button>
      </div>
      {open && (
        <div className="chart-params">
          <span>MA</span>
          {indicators.ma.periods.map((period, at) => (
            <ParamField
              key={at}
              label={t`MA period ${at + 1}`}
              value={period}
              min={1}
              max={200}
              apply={(value) => (settings.ma.periods[at] = value)}
            />
          ))}
          <span>EMA</span>
          {indicators.ema.periods.map((period, at) => (
            <ParamField
              key={at}
              label={t`EMA period ${at + 1}`}
              value={period}
              min={1}
              max={200}
              apply={(value) => (settings.ema.periods[at] = value)}
            />
          ))}
          <span>BOLL</span>
          <ParamField
            label={t`Bollinger period`}
            value={indicators.boll.period}
            min={2}
            max={200}
            apply={(value) => (settings.boll.period = value)}
          />
          <ParamField
            label={t`Bollinger width`}
            value={indicators.boll.width}
            min={0.5}
            max={5}
            whole={false}
            apply={(value) => (settings.boll.width = value)}
          />
        </div>
      )}
    </>
  );
}
