// The options' risk figure (api-contract/risk.ts) beside the buy buttons and in the confirmation of a
// customer's first order: what share of the customers who traded options in the 30 days before a day
// lost money on them, said with that day (the figure does not count the day's own trades, so the text
// never says "as of" it). Its code comes in a chunk of its own, apart from the page's;
// a public read the service worker keeps, so offline it shows the last figure loaded, with its day.
import { useEffect, useLayoutEffect, useState, type ReactNode } from 'react';
import { proxy, useSnapshot } from 'valtio';
import { Trans } from '@lingui/react/macro';
import { RISK_WINDOW_DAYS, riskFigure, type RiskFigure } from '../../api-contract/risk.ts';
import { api } from '../../lib/api.ts';
import { formatRiskDay, formatRiskPercent } from './risk-format.ts';

/** The last figure read in this visit: the confirmation shows it at once. */
const risk = proxy({ figure: null as RiskFigure | null });

interface RiskNoteProps {
  /** Shown in the note's place until the figure is there or cannot be had (nothing by default). */
  whileLoading?: ReactNode;
  /** Called when the figure is on screen or cannot be had (no network and none kept), before the browser paints. */
  onSettled?: () => void;
}

/** The risk figure as a paragraph, read afresh on each mount; the last one read shows at once meanwhile. */
export default function RiskNote({ whileLoading = null, onSettled }: RiskNoteProps) {
  const { figure } = useSnapshot(risk);
  const [failed, setFailed] = useState(false);
  useEffect(() => {
    api(riskFigure, undefined, { loading: false }).then(
      (answer) => void (risk.figure = answer),
      () => setFailed(true), // Nothing kept and no network: no figure rather than an invented one.
    );
  }, []);
  const settled = figure !== null || failed;
  // Before the browser paints: a figure already read lets the confirmation's Confirm go in the frame it opens in.
  useLayoutEffect(() => {
    if (settled) onSettled?.();
  }, [settled, onSettled]);
  if (!figure) return failed ? null : whileLoading;
  const days = RISK_WINDOW_DAYS;
  const date = formatRiskDay(figure.day);
  if (figure.percent === null)
    return (
      <p className="opt-risk">
        <Trans>
          No customer traded options in the {days} days before {date}.
        </Trans>
      </p>
    );
  const percent = formatRiskPercent(figure.percent);
  return (
    <p className="opt-risk">
      <Trans>
        <strong>{percent} %</strong> of customers who traded options in the {days} days before {date} lost money on
        them.
      </Trans>
    </p>
  );
}
