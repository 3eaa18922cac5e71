// Daily check-in (/pages/index/singin, custom nav bar): today's button, the streak and the
// point balance, the month's calendar (checked-in days marked, today highlighted, earlier months to
// browse) and the reward ladder with the next reward highlighted. One check-in per local day of the
// server's timezone; the server refuses a second one.
import { useEffect } from 'react';
import { Link } from 'wouter';
import { useSnapshot, type Snapshot } from 'valtio';
import { Trans, useLingui } from '@lingui/react/macro';
import { checkInCalendar, type CheckInCalendar } from '../../api-contract/check-in.ts';
import { ROUTES } from '../../api-contract/routes.ts';
import { errorText } from '../../lib/api.ts';
import { formatPoints } from '../../lib/points.ts';
import { currentLocale, intlLocale } from '../../lib/i18n.ts';
import { toast } from '../../lib/toast.ts';
import { useSubmit } from '../../lib/form.ts';
import { BackIcon, ChevronIcon, GiftIcon } from '../../ui/icons.tsx';
import { LoadFailure } from '../../ui/lists.tsx';
import { NavBar } from '../../ui/NavBar.tsx';
import { WordBreaks } from '../../ui/WordBreaks.tsx';
import { OfflineNote } from '../../ui/OfflineNote.tsx';
import {
  dayNumber,
  firstDayOfWeek,
  ladderSteps,
  monthGrid,
  monthTitle,
  shiftMonth,
  weekdayNames,
} from './check-in-calendar.ts';
import { calendarOn, loadCheckIn, checkInState, checkInToday, todayIn } from './check-in-store.ts';
import './check-in.css';

/** The calendar as the store's snapshot gives it. */
type Calendar = Snapshot<CheckInCalendar>;

const reload = (month = '') => void loadCheckIn(month).catch(() => undefined);

export default function CheckInPage() {
  const { t } = useLingui();
  const { calendar: answered, failure } = useSnapshot(checkInState);
  // A month stored on an earlier day (shown offline) is shown as of today: not checked in yet, the run as it stands.
  const calendar = answered && calendarOn(answered, todayIn(answered));
  useEffect(() => reload(), []);

  return (
    <div className="page check-in-page">
      <NavBar
        title={<Trans>Daily check-in</Trans>}
        right={
          <Link href={ROUTES.welfare} className="icon-button" aria-label={t`Welfare`} title={t`Welfare`}>
            <GiftIcon />
          </Link>
        }
      />
      <div className="page-body">
        <OfflineNote endpoints={[checkInCalendar]} />
        {!calendar && failure && <LoadFailure onRetry={() => reload()}>{failure}</LoadFailure>}
        {calendar && (
          <>
            <TodayCard calendar={calendar} />
            <MonthCalendar calendar={calendar} />
            <Ladder calendar={calendar} />
            <p className="muted check-in-note">
              <Trans>
                Check in once a day to keep your streak: each day in a row climbs the ladder, and a missed day starts it
                again at day 1. Days start at midnight, <bdi>{calendar.time_zone}</bdi> time.
              </Trans>
            </p>
          </>
        )}
      </div>
    </div>
  );
}

function TodayCard({ calendar }: { calendar: Calendar }) {
  const { t } = useLingui();
  const { busy, submit } = useSubmit(
    async () => {
      const answer = await checkInToday();
      const points = formatPoints(answer.reward);
      toast(t`+${points} points`);
    },
    undefined,
    (error) => {
      // Checked in from another device or tab meanwhile: show today as done.
      reload(checkInState.calendar?.month ?? '');
      return errorText(error);
    },
  );
  const streak = calendar.streak;
  const reward = formatPoints(calendar.today_reward);
  const balance = formatPoints(calendar.balance);
  const tomorrow = formatPoints(calendar.next_reward);
  return (
    <section className="card check-in-today">
      <div className="check-in-figures">
        <div>
          <span className="check-in-label">
            <Trans>Current streak</Trans>
          </span>
          <strong className="check-in-streak" data-testid="check-in-streak">
            {streak === 1 ? <Trans>1 day</Trans> : <Trans>{streak} days</Trans>}
          </strong>
        </div>
        <div className="check-in-balance">
          <span className="check-in-label">
            <Trans>Points balance</Trans>
          </span>
          <Link href={ROUTES.pointRecord} className="check-in-balance-amount" dir="ltr" data-testid="check-in-balance">
            {balance}
          </Link>
        </div>
      </div>
      <button
        type="button"
        className="check-in-button"
        onClick={() => void submit()}
        disabled={busy || calendar.signed_today}
        aria-busy={busy}
      >
        {/* Its labels wrap between words only (the circle is narrow: Japanese "デイリーログイン" broke inside ログイン). */}
        {calendar.signed_today ? (
          <span className="check-in-button-label">
            <WordBreaks text={t`Checked in today`} />
          </span>
        ) : busy ? (
          <span className="check-in-button-label">
            <WordBreaks text={t`Checking in…`} />
          </span>
        ) : (
          <>
            <span className="check-in-button-label">
              <WordBreaks text={t`Check in`} />
            </span>
            <small dir="ltr">+{reward}</small>
          </>
        )}
      </button>
      {calendar.signed_today && (
        <p className="check-in-tomorrow">
          <Trans>
            Come back tomorrow for <strong dir="ltr">+{tomorrow}</strong> points.
          </Trans>
        </p>
      )}
    </section>
  );
}

function MonthCalendar({ calendar }: { calendar: Calendar }) {
  const { t } = useLingui();
  const locale = intlLocale(currentLocale());
  const firstDay = firstDayOfWeek(locale);
  const checkedIn = new Set(calendar.signed_days);
  const thisMonth = calendar.today.slice(0, 7);
  const title = monthTitle(calendar.month, locale);
  return (
    <section className="card check-in-calendar" aria-label={title}>
      <div className="check-in-month">
        <button
          type="button"
          className="icon-button"
          onClick={() => reload(shiftMonth(calendar.month, -1))}
          aria-label={t`Previous month`}
        >
          <BackIcon className="flip-rtl" />
        </button>
        <h2>{title}</h2>
        <button
          type="button"
          className="icon-button"
          onClick={() => reload(shiftMonth(calendar.month, 1))}
          disabled={calendar.month >= thisMonth}
          aria-label={t`Next month`}
        >
          <ChevronIcon className="flip-rtl" />
        </button>
      </div>
      <table className="check-in-grid">
        <thead>
          <tr>
            {weekdayNames(locale, firstDay).map((name, index) => (
              <th key={index} scope="col">
                {name}
              </th>
            ))}
          </tr>
        </thead>
        <tbody>
          {monthGrid(calendar.month, firstDay).map((week, index) => (
            <tr key={index}>
              {week.map((day, column) => {
                if (!day) return <td key={column} />;
                const done = checkedIn.has(day);
                const today = day === calendar.today;
                const classes = ['check-in-day', done && 'checked-in', today && 'today'].filter(Boolean).join(' ');
                return (
                  <td key={column}>
                    <span
                      className={classes}
                      aria-current={today ? 'date' : undefined}
                      title={done ? t`Checked in` : undefined}
                    >
                      {dayNumber(day)}
                    </span>
                  </td>
                );
              })}
            </tr>
          ))}
        </tbody>
      </table>
    </section>
  );
}

function Ladder({ calendar }: { calendar: Calendar }) {
  const steps = ladderSteps(calendar.ladder, calendar.streak);
  return (
    <section className="card check-in-ladder">
      <h2>
        <Trans>Reward ladder</Trans>
      </h2>
      <ol>
        {steps.map((step) => {
          const day = step.day;
          const last = day === steps.length;
          return (
            <li key={day} className={step.state} aria-current={step.state === 'next' ? 'step' : undefined}>
              <span className="check-in-step-points" dir="ltr">
                +{formatPoints(step.points)}
              </span>
              <span className="check-in-step-day">{last ? <Trans>Day {day}+</Trans> : <Trans>Day {day}</Trans>}</span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
