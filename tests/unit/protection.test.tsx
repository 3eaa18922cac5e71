// @vitest-environment jsdom
// The customer's own limits and time-out on the device: the reminder after the chosen minutes of foreground time
// (time in the background does not count; "Keep going" and "Take a break"), the countdown of a loosening from the
// seconds the server said were left, the time-out panel in place of the order buttons until the time-out ends, and
// the page's checks of what is typed.
import { act, type ReactNode } from 'react';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { foregroundClock } from '../../src/lib/foreground.ts';
import { formatDate } from '../../src/lib/format.ts';
import { noteTimeOut, timeOut } from '../../src/lib/time-out.ts';
import { TimeoutGate } from '../../src/ui/TimeoutGate.tsx';
import { TIMEOUT_TEXT } from '../../src/ui/TimeoutPanel.tsx';
import { reminderOn } from '../../src/features/protection/reminder.ts';
import { renderReminderDialog } from '../../src/features/protection/ReminderDialog.tsx';
import { Duration, durationParts } from '../../src/features/protection/ProtectionParts.tsx';
import { TIMEOUT_TEXTS } from '../../src/features/protection/timeout-texts.ts';
import {
  changeSetting,
  cleanLimit,
  daysAhead,
  localInput,
  localMoment,
  protectionState,
  timeoutProblem,
} from '../../src/features/protection/protection-store.ts';
import { envelope, mountPoint, resetClientState, stubFetch, useFakeTimers } from './helpers.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const MINUTE = 60_000;

/** A document whose visibility the test sets. */
function fakeDocument() {
  const target = new EventTarget() as EventTarget & { visibilityState: DocumentVisibilityState };
  target.visibilityState = 'visible';
  const show = (state: DocumentVisibilityState) => {
    target.visibilityState = state;
    target.dispatchEvent(new Event('visibilitychange'));
  };
  return { doc: target as unknown as Document, show };
}

beforeEach(() => {
  resetClientState();
  useFakeTimers();
});
afterEach(() => {
  resetClientState();
  document.body.querySelectorAll('.dialog-backdrop').forEach((dialog) => dialog.parentElement?.remove());
});

describe('the foreground clock', () => {
  it('counts the time the page is visible, not the time in the background', () => {
    const { doc, show } = fakeDocument();
    const clock = foregroundClock(Date.now, doc);
    vi.advanceTimersByTime(10 * MINUTE);
    show('hidden');
    vi.advanceTimersByTime(60 * MINUTE);
    expect(clock.elapsed()).toBe(10 * MINUTE);
    show('visible');
    vi.advanceTimersByTime(5 * MINUTE);
    expect(clock.elapsed()).toBe(15 * MINUTE);
  });
});

describe('the reminder', () => {
  it('reminds after the chosen minutes in the foreground, then again after as many more once answered', () => {
    const { doc, show } = fakeDocument();
    const shown: number[] = [];
    const reminder = reminderOn(foregroundClock(Date.now, doc), (elapsed) => shown.push(elapsed));
    reminder.choose(45);
    vi.advanceTimersByTime(30 * MINUTE);
    // Twenty minutes in the background count for nothing.
    show('hidden');
    vi.advanceTimersByTime(20 * MINUTE);
    show('visible');
    vi.advanceTimersByTime(15 * MINUTE - 1);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual([45 * MINUTE]);
    // While the dialog waits for an answer, no other comes.
    vi.advanceTimersByTime(60 * MINUTE);
    expect(shown).toHaveLength(1);
    // Answered at 105 minutes: the next at 135 (the next multiple of 45).
    reminder.answered();
    vi.advanceTimersByTime(30 * MINUTE - 1);
    expect(shown).toHaveLength(1);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual([45 * MINUTE, 135 * MINUTE]);
  });

  it('follows a change of the setting, and stops when it is turned off', () => {
    const { doc } = fakeDocument();
    const shown: number[] = [];
    const reminder = reminderOn(foregroundClock(Date.now, doc), (elapsed) => shown.push(elapsed));
    reminder.choose(60);
    vi.advanceTimersByTime(50 * MINUTE);
    // 50 minutes in, a reminder every 20 minutes: the next at 60.
    reminder.choose(20);
    vi.advanceTimersByTime(10 * MINUTE);
    expect(shown).toEqual([60 * MINUTE]);
    reminder.answered();
    reminder.choose(0);
    vi.advanceTimersByTime(24 * 60 * MINUTE);
    expect(shown).toHaveLength(1);
  });

  it('waits past the longest timer a browser keeps', () => {
    const { doc } = fakeDocument();
    const shown: number[] = [];
    reminderOn(foregroundClock(Date.now, doc), (elapsed) => shown.push(elapsed)).choose(1440);
    vi.advanceTimersByTime(1440 * MINUTE - 1);
    expect(shown).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(shown).toEqual([1440 * MINUTE]);
  });

  it('says how long it has been; "Take a break" opens the limits page, "Keep going" goes on', async () => {
    const { doc } = fakeDocument();
    const answered = vi.fn();
    const reminder = reminderOn(foregroundClock(Date.now, doc), (elapsed) =>
      renderReminderDialog(elapsed, () => {
        answered();
        reminder.answered();
      }),
    );
    reminder.choose(45);
    act(() => vi.advanceTimersByTime(45 * MINUTE));
    const dialog = () => document.querySelector('[role="alertdialog"]');
    expect(dialog()).not.toBeNull();
    expect(dialog()!.textContent).toContain('You have been in the app for 45 min.');
    const button = (name: string) =>
      [...dialog()!.querySelectorAll('button')].find((item) => item.textContent === name)!;
    await act(async () => button('Keep going').click());
    expect(dialog()).toBeNull();
    expect(answered).toHaveBeenCalledTimes(1);
    expect(location.hash).not.toContain(ROUTES.protection);

    // The next at 90 minutes: 1 h 30 min.
    act(() => vi.advanceTimersByTime(45 * MINUTE));
    expect(dialog()).not.toBeNull();
    expect(dialog()!.textContent).toContain('You have been in the app for 1 h 30 min.');
    await act(async () => button('Take a break').click());
    expect(dialog()).toBeNull();
    expect(location.hash).toBe(`#${ROUTES.protection}`);
    expect(answered).toHaveBeenCalledTimes(2);
    // Turned off: the timer set for 135 minutes goes.
    reminder.choose(0);
  });
});

describe('durations and countdowns', () => {
  const view = mountPoint();
  const show = (node: ReactNode) => act(async () => view.root.render(<I18nProvider i18n={i18n}>{node}</I18nProvider>));

  it('rounds down, so a countdown of 24 hours shows 23 h 59 min a moment later', async () => {
    expect(durationParts(86_400_000)).toEqual({ hours: 24, minutes: 0, seconds: 0 });
    expect(durationParts(86_400_000 - 1)).toEqual({ hours: 23, minutes: 59, seconds: 59 });
    expect(durationParts(-5)).toEqual({ hours: 0, minutes: 0, seconds: 0 });
    await show(<Duration ms={86_399_000} seconds />);
    expect(view.container.textContent).toBe('23 h 59 min');
    await show(<Duration ms={3_598_000} seconds />);
    expect(view.container.textContent).toBe('59 min 58 s');
    await show(<Duration ms={3_598_000} />);
    expect(view.container.textContent).toBe('59 min');
  });

  it('counts a loosening down from the seconds the server said were left, and says it takes effect later', async () => {
    const answer = {
      limits: {
        stake_day: '100',
        stake_week: '',
        stake_month: '',
        loss_day: '',
        loss_week: '',
        loss_month: '',
        max_open_options: '',
        reminder_minutes: '',
        timeout_until: '',
      },
      pending: [
        {
          setting: 'stake_day',
          value: '200',
          requested_at: '2026-11-27T00:00:00.000Z',
          effective_at: '2026-11-28T00:00:00.000Z',
          seconds_left: 86_400,
        },
      ],
      used: {
        stake_day: '40',
        stake_week: '40',
        stake_month: '40',
        loss_day: '0',
        loss_week: '0',
        loss_month: '0',
        open_stakes: '0',
        open_options: 0,
      },
      left: {
        stake_day: '60',
        stake_week: '',
        stake_month: '',
        loss_day: '',
        loss_week: '',
        loss_month: '',
        open_options: '',
      },
      timeout_seconds_left: 0,
      // The server's clock may differ from the device's: only seconds_left counts.
      now: '2020-01-01T00:00:00.000Z',
    };
    const { calls } = stubFetch(envelope(1, '', answer));
    expect(await changeSetting('stake_day', '200')).toBe('later');
    expect(new URLSearchParams(calls[0]!.body).get('value')).toBe('200');
    expect(protectionState.dueAt.stake_day).toBe(Date.now() + 86_400_000);
    stubFetch(envelope(1, '', { ...answer, pending: [] }));
    expect(await changeSetting('stake_day', '50')).toBe('now');
    expect(protectionState.dueAt).toEqual({});
  });
});

describe('the time-out panel', () => {
  const view = mountPoint();
  const show = (node: ReactNode) => act(async () => view.root.render(<I18nProvider i18n={i18n}>{node}</I18nProvider>));

  it('names every text it shows in the protection area', () => {
    expect(Object.values(TIMEOUT_TEXT).sort()).toEqual(
      Object.values(TIMEOUT_TEXTS)
        .map((text) => text.id)
        .sort(),
    );
  });

  it('stands in place of the order buttons until the time-out ends', async () => {
    act(() =>
      i18n.load('en', Object.fromEntries(Object.values(TIMEOUT_TEXTS).map((text) => [text.id, text.message!]))),
    );
    const until = new Date(Date.now() + 2.5 * 86_400_000).toISOString();
    noteTimeOut({ limits: { timeout_until: until }, timeout_seconds_left: 2.5 * 86_400 });
    await show(
      <TimeoutGate>
        <button type="button">Buy up</button>
      </TimeoutGate>,
    );
    await vi.waitFor(() => expect(view.container.querySelector('.timeout-panel')).not.toBeNull());
    expect(view.container.querySelector('button')).toBeNull();
    expect(view.container.querySelector('.timeout-panel-until')!.textContent).toBe(
      `You are taking a time-out until ${formatDate('dateClock', new Date(until))} (in 3 days).`,
    );
    expect(view.container.querySelector('a')!.getAttribute('href')).toContain(ROUTES.protection);

    await act(async () => vi.advanceTimersByTime(2.5 * 86_400_000 + 100));
    expect(view.container.querySelector('.timeout-panel')).toBeNull();
    expect(view.container.textContent).toBe('Buy up');
    expect(timeOut.until).toBe(until);
  });

  it('shows nothing of it without a time-out', async () => {
    noteTimeOut({ limits: { timeout_until: '' }, timeout_seconds_left: 0 });
    await show(
      <TimeoutGate>
        <button type="button">Buy up</button>
      </TimeoutGate>,
    );
    expect(view.container.textContent).toBe('Buy up');
  });
});

describe('what the page checks before sending', () => {
  it('writes a typed limit as the API contract does', () => {
    expect(cleanLimit(' 010.50 ')).toBe('10.5');
    expect(cleanLimit('100.')).toBe('100');
    expect(cleanLimit('1e3')).toBe('1e3');
  });

  it('reads the end of a time-out on the device’s wall clock, and refuses one under 24 hours', () => {
    const end = daysAhead(7);
    expect(end.getTime() - Date.now()).toBeGreaterThanOrEqual(7 * 86_400_000);
    expect(end.getTime() - Date.now()).toBeLessThan(7 * 86_400_000 + 16 * MINUTE);
    expect(localMoment(localInput(end))).toBe(end.toISOString());
    expect(localMoment('2026-13-40')).toBe('');
    expect(timeoutProblem(daysAhead(1).toISOString())).toBeNull();
    expect(timeoutProblem(new Date(Date.now() + 23 * 3_600_000).toISOString())).toBe(
      'A time-out lasts at least 24 hours!',
    );
    expect(timeoutProblem('')).toBe('Please choose when the time-out ends!');
  });
});
