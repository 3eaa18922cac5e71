// The statement form of the account details page: a period (first and last day, in this device's
// time zone) and an asset; the server's statement, all its pages (statement-pages.ts), becomes a CSV
// file made on the device (statement-csv.ts, loaded on the first download). Each page is kept by the
// service worker, so a period already downloaded can be downloaded again offline; one not yet loaded
// says it needs a connection.
import { useState } from 'react';
import { msg } from '@lingui/core/macro';
import { Trans, useLingui } from '@lingui/react/macro';
import { useSnapshot } from 'valtio';
import { LOCALE_NAMES } from '../../api-contract/constants.ts';
import { POINTS } from '../../api-contract/rewards.ts';
import { STATEMENT_MAX_DAYS, periodProblem, statement } from '../../api-contract/statements.ts';
import { texts } from '../../api-contract/texts.ts';
import { CALENDAR_FIRST_DAY, CALENDAR_LAST_DAY } from '../../api-contract/calendar.ts';
import { ApiError, api } from '../../lib/api.ts';
import { USDT, userBalances } from '../../lib/balances.ts';
import { currentLocale, intlLocale } from '../../lib/i18n.ts';
import { knownOffline } from '../../lib/offline.ts';
import { saveCsvFile } from '../../lib/csv.ts';
import { Button } from '../../ui/forms.tsx';
import { assetLabel, kindLabel } from './account-details-store.ts';
import { wholeStatement } from './statement-pages.ts';
import './statement.css';

/** This device's time zone: the statement's days run from its midnights. */
const deviceTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';

/** A day on this device's calendar, "2026-11-27". */
const localDay = (at: Date) =>
  `${at.getFullYear()}-${String(at.getMonth() + 1).padStart(2, '0')}-${String(at.getDate()).padStart(2, '0')}`;

const PERIOD_TEXTS = {
  date: msg`Please choose the first and the last day of the period!`,
  calendar: texts.calendarDate,
  order: msg`The first day of the period must not be after the last day!`,
  length: msg`A statement covers at most ${STATEMENT_MAX_DAYS} days: please choose a shorter period!`,
};

type Outcome = { kind: 'done'; file: string } | { kind: 'error'; text: string } | null;

export default function StatementPanel() {
  const { t, i18n } = useLingui();
  const { lists } = useSnapshot(userBalances);
  const today = new Date();
  const [from, setFrom] = useState(() => localDay(new Date(today.getFullYear(), today.getMonth(), 1)));
  const [to, setTo] = useState(() => localDay(today));
  const [asset, setAsset] = useState(USDT);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const assets = [...new Set([USDT, ...lists.map((balance) => balance.asset).filter((name) => name !== POINTS)])];

  const download = async () => {
    const problem = periodProblem(from, to);
    if (problem) return setOutcome({ kind: 'error', text: i18n._(PERIOD_TEXTS[problem]) });
    setBusy(true);
    setOutcome(null);
    try {
      const timeZone = deviceTimeZone();
      const [answer, csv] = await Promise.all([
        wholeStatement((after) => api(statement, { asset, from, to, tz: timeZone, ...(after ? { after } : {}) })),
        import('./statement-csv.ts'),
      ]);
      const locale = currentLocale();
      const file = csv.statementFileName(answer);
      const text = csv.statementCsv(answer, {
        locale: intlLocale(locale),
        languageName: `${LOCALE_NAMES[locale]} (${locale})`,
        timeZone,
        generatedAt: new Date(),
        kindLabel,
        assetLabel,
        texts: {
          title: t`Coinvest account statement`,
          language: t`Language`,
          timeZone: t`Time zone`,
          numberFormat: t`Number format`,
          asset: t`Asset`,
          period: t`Period`,
          generatedAt: t`Generated at`,
          opening: t`Opening balance`,
          closing: t`Closing balance`,
          time: t`Time`,
          kind: t`Type`,
          amount: t`Amount`,
          balance: t`Balance after`,
          reference: t`Reference`,
        },
      });
      saveCsvFile(file, text);
      setOutcome({ kind: 'done', file });
    } catch (error) {
      const offline = error instanceof ApiError && error.ret === undefined && knownOffline();
      const text = offline
        ? t`This period is not on this device yet: downloading its statement needs a connection.`
        : error instanceof Error
          ? error.message
          : String(error);
      setOutcome({ kind: 'error', text });
    } finally {
      setBusy(false);
    }
  };

  return (
    <section className="card statement-panel" aria-labelledby="statement-title">
      <h2 id="statement-title" className="statement-title">
        <Trans>Statement</Trans>
      </h2>
      <div className="statement-period">
        <div className="field">
          <label htmlFor="statement-from">
            <Trans>First day</Trans>
          </label>
          <div className="field-box">
            <input
              id="statement-from"
              type="date"
              value={from}
              min={CALENDAR_FIRST_DAY}
              max={to}
              onChange={(e) => setFrom(e.target.value)}
            />
          </div>
        </div>
        <div className="field">
          <label htmlFor="statement-to">
            <Trans>Last day</Trans>
          </label>
          <div className="field-box">
            <input
              id="statement-to"
              type="date"
              value={to}
              min={from}
              max={CALENDAR_LAST_DAY}
              onChange={(e) => setTo(e.target.value)}
            />
          </div>
        </div>
      </div>
      <div className="field">
        <label htmlFor="statement-asset">
          <Trans>Asset</Trans>
        </label>
        <div className="field-box">
          <select id="statement-asset" value={asset} onChange={(event) => setAsset(event.target.value)}>
            {assets.map((name) => (
              <option key={name} value={name}>
                {assetLabel(name)}
              </option>
            ))}
          </select>
        </div>
      </div>
      <p className="statement-note">
        <Trans>
          A CSV file in your language, with times in your time zone ({deviceTimeZone()}), every entry of the period and
          the opening and closing balances. A period downloaded once can be downloaded again offline.
        </Trans>
      </p>
      <Button onClick={() => void download()} disabled={busy}>
        <Trans>Download CSV</Trans>
      </Button>
      {outcome?.kind === 'error' && (
        <p className="statement-error" role="alert">
          {outcome.text}
        </p>
      )}
      {outcome?.kind === 'done' && (
        <p className="statement-done" role="status">
          <Trans>Downloaded {outcome.file}</Trans>
        </p>
      )}
    </section>
  );
}
