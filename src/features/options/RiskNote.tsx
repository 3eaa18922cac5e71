// The options' risk figure (api-contract/risk.ts) beside the buy buttons and in the confirmation of a
// customer's first order: what share of the customers who traded options in the last 30 days lost
// money on them, and the day it is for. Its code comes in a chunk of its own, apart from the page's;
// a public read the service worker keeps, so offline it shows the last figure loaded, with its day.
import { useEffect } from 'react';
import { proxy, useSnapshot } from 'valtio';
import { Trans } from '@lingui/react/macro';
import { RISK_WINDOW_DAYS, riskFigure, type RiskFigure } from '../../api-contract/risk.ts';
import { api } from '../../lib/api.ts';
import { formatRiskDay, formatRiskPercent } from './risk-format.ts';

/** The last figure read in this visit: the confirmation shows it at once. */
const risk = proxy({ figure: null as RiskFigure | null });

export default function RiskNote() {
  const { figure } = useSnapshot(risk);
  useEffect(() => {
    api(riskFigure, undefined, { loading: false }).then(
      (answer) => void (risk.figure = answer),
      () => undefined, // Nothing kept and no network: no figure rather than an invented one.
    );
  }, []);
  if (!figure) return null;
  const days = RISK_WINDOW_DAYS;
  const date = formatRiskDay(figure.day);
  if (figure.percent === null)
    return (
      <p className="opt-risk">
        <Trans>
          No customer traded options in the last {days} days (as of {date}).
        </Trans>
      </p>
    );
  const percent = formatRiskPercent(figure.percent);
  return (
    <p className="opt-risk">
      <Trans>
        <strong>{percent} %</strong> of customers who traded options in the last {days} days lost money on them (as of{' '}
        {date}).
      </Trans>
    </p>
  );
}
