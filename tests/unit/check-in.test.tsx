// @vitest-environment jsdom
// The check-in page's rules: the month grid from the locale's first weekday, localised weekday
// heads, browsing months, the ladder's steps with the next reward, the reward a streak earns, and
// the store: a check-in's answer shown at once, offline failing before any request, a refusal shown; a month stored on
// an earlier day shown as of today.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_CHECK_IN_LADDER,
  ladderReward,
  parseLadder,
  type CheckInCalendar,
} from '../../src/api-contract/check-in.ts';
import {
  firstDayOfWeek,
  ladderSteps,
  monthGrid,
  monthTitle,
  shiftMonth,
  weekdayNames,
} from '../../src/features/check-in/check-in-calendar.ts';
import {
  afterCheckIn,
  calendarOn,
  loadCheckIn,
  checkInState,
  checkInToday,
  todayIn,
} from '../../src/features/check-in/check-in-store.ts';
import CheckInPage from '../../src/features/check-in/CheckInPage.tsx';
import { session } from '../../src/lib/session.ts';
import { envelope, mountPoint, resetClientState, stubFetch } from './helpers.ts';
import { renderInApp } from './render-in-app.tsx';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const LADDER = ['5', '5', '10', '10', '15', '20', '30'];

describe('the reward ladder', () => {
  it('reads a configured ladder and refuses a broken one', () => {
    expect(parseLadder(DEFAULT_CHECK_IN_LADDER)).toEqual(LADDER);
    expect(parseLadder(' 7, 9 ')).toEqual(['7', '9']);
    for (const broken of ['', '0,5', '5,,5', '5,-1', '1.5', 'a', '5,1000001', Array(32).fill('1').join(',')])
      expect(parseLadder(broken)).toBeNull();
  });

  it('pays the step of the streak, the last step from then on', () => {
    expect([1, 2, 3, 7, 8, 30].map((streak) => ladderReward(LADDER, streak))).toEqual([
      '5',
      '5',
      '10',
      '30',
      '30',
      '30',
    ]);
    expect(ladderReward(LADDER, 0)).toBe('0');
  });

  it('marks the steps behind, and the next one: today’s before checking in, tomorrow’s after', () => {
    expect(ladderSteps(LADDER, 0).map((step) => step.state)).toEqual([
      'next',
      'later',
      'later',
      'later',
      'later',
      'later',
      'later',
    ]);
    expect(ladderSteps(LADDER, 2).map((step) => step.state)).toEqual([
      'done',
      'done',
      'next',
      'later',
      'later',
      'later',
      'later',
    ]);
    // Past the top: every step is behind and the last one is what comes next.
    expect(ladderSteps(LADDER, 9).map((step) => step.state)).toEqual([
      'done',
      'done',
      'done',
      'done',
      'done',
      'done',
      'next',
    ]);
    expect(ladderSteps(LADDER, 2)[2]).toEqual({ day: 3, points: '10', state: 'next' });
  });
});

describe('the month calendar', () => {
  it('lays November 2026 out from Monday and from Sunday, with blanks around the month', () => {
    const monday = monthGrid('2026-11', 1);
    expect(monday[0]).toEqual([null, null, null, null, null, null, '2026-11-01']); // the 1st is a Sunday
    expect(monday.at(-1)).toEqual(['2026-11-30', null, null, null, null, null, null]);
    expect(monday).toHaveLength(6);
    const sunday = monthGrid('2026-11', 7);
    expect(sunday[0]![0]).toBe('2026-11-01');
    expect(sunday).toHaveLength(5);
    expect(sunday.flat().filter(Boolean)).toHaveLength(30);
    // Saturday first (Arabic-speaking regions), and February of a leap year.
    expect(monthGrid('2024-02', 6)[0]).toEqual([null, null, null, null, null, '2024-02-01', '2024-02-02']);
    expect(monthGrid('2024-02', 6).flat().filter(Boolean).at(-1)).toBe('2024-02-29');
  });

  it('localises the weekday heads and the month title, in the order of the week', () => {
    expect(weekdayNames('en', 1)).toEqual(['M', 'T', 'W', 'T', 'F', 'S', 'S']);
    expect(weekdayNames('en', 7)).toEqual(['S', 'M', 'T', 'W', 'T', 'F', 'S']);
    expect(weekdayNames('ar', 6)[0]).toBe(
      new Intl.DateTimeFormat('ar', { weekday: 'narrow', timeZone: 'UTC' }).format(new Date(Date.UTC(2024, 0, 6))),
    );
    expect(monthTitle('2026-11', 'en')).toBe('November 2026');
    expect(monthTitle('2026-11', 'ar')).toMatch(/2026/); // Latin digits, as every number of the app
    expect([1, 6, 7]).toContain(firstDayOfWeek('en'));
    expect(firstDayOfWeek('not a locale!')).toBe(7);
  });

  it('browses months across years', () => {
    expect(shiftMonth('2026-11', -1)).toBe('2026-10');
    expect(shiftMonth('2026-01', -1)).toBe('2025-12');
    expect(shiftMonth('2026-12', 1)).toBe('2027-01');
  });
});

const calendar = (fields: Partial<CheckInCalendar> = {}): CheckInCalendar => ({
  month: '2026-11',
  signed_days: ['2026-11-21', '2026-11-22'],
  today: '2026-11-23',
  signed_today: false,
  streak: 2,
  ladder: LADDER,
  today_reward: '10',
  next_reward: '10',
  time_zone: 'Asia/Bangkok',
  balance: '10',
  ...fields,
});

describe('checking in', () => {
  beforeEach(() => {
    resetClientState();
    session.token = 'token-1';
  });
  afterEach(() => {
    resetClientState();
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => true });
  });

  it('folds the answer in: today marked, the streak, tomorrow’s reward and the balance', () => {
    expect(afterCheckIn(calendar(), { day: '2026-11-23', streak: 3, reward: '10', balance: '20' })).toEqual(
      calendar({
        signed_days: ['2026-11-21', '2026-11-22', '2026-11-23'],
        signed_today: true,
        streak: 3,
        today_reward: '10',
        next_reward: '10',
        balance: '20',
      }),
    );
    // A month browsed back to stays as it is, apart from the figures.
    const october = calendar({ month: '2026-10', signed_days: ['2026-10-30'] });
    expect(afterCheckIn(october, { day: '2026-11-23', streak: 3, reward: '10', balance: '20' }).signed_days).toEqual([
      '2026-10-30',
    ]);
  });

  it('loads the month, checks in with an Idempotency-Key and shows the answer before the month comes back', async () => {
    const { calls } = stubFetch(
      envelope(1, 'Success', calendar()),
      envelope(1, 'Success', { day: '2026-11-23', streak: 3, reward: '10', balance: '20' }),
      () => new Promise<Response>(() => undefined),
    );
    await loadCheckIn();
    expect(checkInState.calendar?.streak).toBe(2);
    const answer = await checkInToday();
    expect(answer.reward).toBe('10');
    expect(calls[1]!.request.method).toBe('POST');
    expect(new URL(calls[1]!.request.url).pathname).toBe('/api/task/signin');
    expect(calls[1]!.request.headers.get('idempotency-key')).toBeTruthy();
    expect(checkInState.calendar).toMatchObject({ signed_today: true, streak: 3, balance: '20', next_reward: '10' });
  });

  it('fails at once offline with the offline text, sending nothing', async () => {
    const { calls } = stubFetch(envelope(1, 'Success', calendar()));
    await loadCheckIn();
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    await expect(checkInToday()).rejects.toThrow(/offline/i);
    expect(calls).toHaveLength(1);
    expect(checkInState.calendar?.signed_today).toBe(false);
  });

  it('shows the server’s refusal of a second check-in and changes nothing', async () => {
    stubFetch(
      envelope(1, 'Success', calendar({ signed_today: false })),
      envelope(0, 'You have already checked in today!'),
    );
    await loadCheckIn();
    await expect(checkInToday()).rejects.toThrow('You have already checked in today!');
    expect(checkInState.calendar?.streak).toBe(2);
  });

  it('forgets the calendar when the session changes', async () => {
    stubFetch(envelope(1, 'Success', calendar()));
    await loadCheckIn();
    session.token = null;
    await Promise.resolve();
    expect(checkInState.calendar).toBeNull();
  });
});

describe('a month stored on an earlier day, shown offline', () => {
  const view = mountPoint();
  afterEach(() => {
    vi.useRealTimers();
    resetClientState();
  });

  it('is brought to today: not checked in, the run alive only after yesterday’s check-in', () => {
    const done = calendar({ signed_today: true, streak: 3, today_reward: '10', next_reward: '10' });
    // The next day: the run goes on, today pays day 4.
    expect(calendarOn(done, '2026-11-24')).toEqual({
      ...done,
      today: '2026-11-24',
      signed_today: false,
      streak: 3,
      today_reward: '10',
      next_reward: '15',
    });
    // Two days on, or the next day after a day not checked in: the run is broken, today pays day 1.
    for (const [stored, day] of [
      [done, '2026-11-25'],
      [calendar(), '2026-11-24'],
    ] as const) {
      expect(calendarOn(stored, day)).toMatchObject({ today: day, signed_today: false, streak: 0, today_reward: '5' });
    }
    // Across a month's end; the days checked in stay as answered.
    const lastDay = calendar({ today: '2026-11-30', signed_today: true, streak: 7 });
    expect(calendarOn(lastDay, '2026-12-01')).toMatchObject({
      streak: 7,
      today_reward: '30',
      signed_days: lastDay.signed_days,
    });
    // Today's answer, or a device clock behind the server's, changes nothing.
    expect(calendarOn(done, '2026-11-23')).toBe(done);
    expect(calendarOn(done, '2026-11-22')).toBe(done);
  });

  it('reads today in the calendar’s time zone', () => {
    const at = new Date('2026-11-23T18:30:00Z'); // 01:30 on the 24th in Bangkok, still the 23rd in London
    expect(todayIn(calendar(), at)).toBe('2026-11-24');
    expect(todayIn(calendar({ time_zone: 'Europe/London' }), at)).toBe('2026-11-23');
    expect(todayIn(calendar({ time_zone: 'Not/AZone' }), at)).toBe('2026-11-23');
  });

  it('offers today’s check-in on the page instead of yesterday’s “Checked in today”', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-11-24T05:00:00Z') }); // noon on the 24th in Bangkok
    session.token = 'token-1';
    await Promise.resolve(); // the session's change forgets any calendar first
    stubFetch(() => new Promise<Response>(() => undefined)); // offline: the stored answer is all there is
    checkInState.calendar = calendar({ signed_today: true, streak: 3 });
    await renderInApp(view, <CheckInPage />);
    const button = view.container.querySelector('.check-in-button');
    expect(button?.textContent).toBe('Check in+10');
    expect(button?.hasAttribute('disabled')).toBe(false);
    expect(view.container.textContent).not.toContain('Checked in today');
    expect(view.container.querySelector('[aria-current="date"]')?.textContent).toBe('24');
  });
});
