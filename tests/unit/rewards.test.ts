// @vitest-environment jsdom
// VIP levels and points: where a level starts (realValue), which level a cumulative
// recharge reaches, the progress bar, the points preview and checks, redeeming and the history.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  FIRST_LEVEL_START,
  levelFor,
  withRealValues,
  type LevelProgress,
  type PointEntry,
} from '../../src/api-contract/rewards.ts';
import { userBalances } from '../../src/lib/balances.ts';
import { session } from '../../src/lib/session.ts';
import {
  currentLevel,
  formatSignedPoints,
  levelRange,
  loadPoints,
  loadVip,
  pointKindLabel,
  progressPercent,
  readPoints,
  redeem,
  redeemPreview,
  redeemProblem,
  rewardsState,
  wholePoints,
} from '../../src/features/rewards/rewards-store.ts';
import { formatMoney } from '../../src/lib/format.ts';
import { formatPoints } from '../../src/lib/points.ts';
import { envelope, resetClientState, stubFetch } from './helpers.ts';
import { hasMore } from '../../src/lib/paged-list.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const levels = withRealValues([
  { level: 1, name: 'VIP1', value: '500' },
  { level: 2, name: 'VIP2', value: '2000' },
  { level: 3, name: 'VIP3', value: '10000' },
]);
const progress = (level: number, rechargeTotal: string, nextStart: string | null): LevelProgress => ({
  level,
  name: level ? `VIP${level}` : '',
  recharge_total: rechargeTotal,
  next_level: nextStart === null ? null : level + 1,
  next_name: nextStart === null ? '' : `VIP${level + 1}`,
  next_start: nextStart,
  needed: '0',
});
const entry = (id: number, amount: string, kind = 'demo_grant'): PointEntry => ({
  id,
  amount,
  kind,
  reference: `ref-${id}`,
  created_at: '2026-01-02T03:04:05.000Z',
});
const rule = { usdt_per_point: '0.01', min_points: '100' };
/** A page of the history: `next` continues after it, null on the last. */
const pointsPage = (lists: PointEntry[], next: string | null, balance = '2500') =>
  envelope(1, 'ok', { lists, next, balance, ...rule });

beforeEach(async () => {
  resetClientState();
  session.token = 'token-a';
  await settle();
});
afterEach(resetClientState);

describe('VIP levels', () => {
  it('starts the first level at 20 and each other at the previous level’s value', () => {
    expect(levels.map((level) => levelRange(level))).toEqual([
      { from: FIRST_LEVEL_START, to: '500' },
      { from: '500', to: '2000' },
      { from: '2000', to: '10000' },
    ]);
    expect(FIRST_LEVEL_START).toBe('20');
  });

  it('reaches the highest level whose start the cumulative recharge has passed', () => {
    expect(levelFor('0', levels)).toBe(0);
    expect(levelFor('19.99999999', levels)).toBe(0);
    expect(levelFor('20', levels)).toBe(1);
    expect(levelFor('499.99', levels)).toBe(1);
    expect(levelFor('500', levels)).toBe(2);
    expect(levelFor('123456789', levels)).toBe(3);
  });

  it('highlights the server’s level, else what the cached cumulative recharge reaches', () => {
    expect(currentLevel(levels, progress(2, '600', '2000'), '0')).toBe(2);
    expect(currentLevel(levels, null, '2000')).toBe(3);
    expect(currentLevel(levels, null, undefined)).toBe(0);
  });

  it('fills the bar from the level’s start to the next one’s', () => {
    expect(progressPercent(progress(0, '10', '20'), levels)).toBe(50);
    expect(progressPercent(progress(1, '20', '500'), levels)).toBe(0);
    expect(progressPercent(progress(1, '260', '500'), levels)).toBe(50);
    expect(progressPercent(progress(2, '1000', '2000'), levels)).toBe(33.3);
    expect(progressPercent(progress(3, '99999', null), levels)).toBe(100);
  });

  it('shows level amounts with thousands separators', () => {
    expect(formatMoney(levels[2]!.realValue)).toBe('2,000.00');
    expect(formatMoney('1000000')).toBe('1,000,000.00');
  });

  it('loads the table and the progress together', async () => {
    const { calls } = stubFetch(() =>
      new URL(calls.at(-1)!.request.url).pathname === '/api/users/ranks'
        ? envelope(1, 'ok', { lists: levels, page: 1, total: 3 })
        : envelope(1, 'ok', progress(1, '260', '500')),
    );
    await loadVip();
    expect(calls.map((call) => new URL(call.request.url).pathname).sort()).toEqual([
      '/api/task/level',
      '/api/users/ranks',
    ]);
    expect(rewardsState.vipLoaded).toBe(true);
    expect(rewardsState.levels).toEqual(levels);
    expect(rewardsState.progress?.level).toBe(1);
  });
});

const WHOLE_POINTS = 'Points are whole numbers: enter digits only, without a decimal mark or a sign.';

describe('points preview and checks', () => {
  it('previews what whole points pay, rounded down to 8 decimals', () => {
    expect(redeemPreview('250', rule)).toBe('2.50000000');
    expect(redeemPreview('1', { usdt_per_point: '0.000000015' })).toBe('0.00000001');
    expect(redeemPreview('999999999999', rule)).toBe('9999999999.99000000');
    expect(redeemPreview('', rule)).toBeNull();
    expect(redeemPreview('0', rule)).toBeNull();
    expect(redeemPreview('250', null)).toBeNull();
  });

  it('answers with the texts, in order: a number, the minimum, the balance', () => {
    expect(redeemProblem('', rule, '2500')).toBe('Please enter the number of points!');
    expect(redeemProblem('12.5', rule, '2500')).toBe(WHOLE_POINTS);
    expect(redeemProblem('0', rule, '2500')).toBe('Please enter the number of points!');
    expect(redeemProblem('99', rule, '2500')).toBe('At least 100 points can be redeemed at a time!');
    expect(redeemProblem('2501', rule, '2500')).toBe('Not enough points!');
    expect(redeemProblem('100', rule, '2500')).toBeNull();
    expect(redeemProblem('2500', rule, '2500.00000000')).toBeNull();
  });

  it('reads whole points in every script the app reads, and fills in the whole balance', () => {
    expect(readPoints('0012')).toEqual({ ok: true, points: '12' });
    expect(readPoints('1,000')).toEqual({ ok: true, points: '1000' });
    expect(readPoints(' 250 ')).toEqual({ ok: true, points: '250' });
    expect(readPoints('')).toEqual({ ok: true, points: '' });
    expect(readPoints('๑๒๓')).toEqual({ ok: true, points: '123' });
    expect(readPoints('١٢٣')).toEqual({ ok: true, points: '123' });
    expect(readPoints('१२३')).toEqual({ ok: true, points: '123' });
    expect(readPoints('１２３')).toEqual({ ok: true, points: '123' });
    expect(readPoints('١٬٠٠٠', 'ar')).toEqual({ ok: true, points: '1000' });
    expect(redeemPreview('๒๕๐', rule)).toBe('2.50000000');
    expect(wholePoints('2500.75000000')).toBe('2500');
  });

  it('refuses a decimal mark or a sign with its text, never merging the digits', () => {
    for (const typed of ['100.5', '100.', '-200', '+200', '−200', '١٠٠٫٥', '100．5', '12a3'])
      expect(readPoints(typed), typed).toEqual({ ok: false, problem: WHOLE_POINTS, unfinished: false });
    expect(redeemPreview('100.5', rule)).toBeNull();
    expect(redeemPreview('-200', rule)).toBeNull();
    expect(redeemProblem('-200', rule, '2500')).toBe(WHOLE_POINTS);
    expect(redeemProblem('100.5', rule, '2500')).toBe(WHOLE_POINTS);
    // On its way to '1,000': refused only if left so.
    expect(readPoints('1,')).toEqual({ ok: false, problem: WHOLE_POINTS, unfinished: true });
  });

  it('shows points with separators and a sign, without empty decimals', () => {
    expect(formatPoints('2500.00000000')).toBe('2,500');
    expect(formatPoints('12.50000000')).toBe('12.5');
    expect(formatSignedPoints('2500')).toBe('+2,500');
    expect(formatSignedPoints('-100.00000000')).toBe('−100');
    expect(formatSignedPoints('0')).toBe('0');
  });

  it('names the kinds it knows and shows others as the server names them', () => {
    expect(pointKindLabel('demo_grant')).toBe('Demo account grant');
    expect(pointKindLabel('lucky_draw')).toBe('lucky_draw');
  });
});

describe('point history and redeeming', () => {
  it('pages through the history with the balance and the rule', async () => {
    const { calls } = stubFetch(pointsPage([entry(3, '10'), entry(2, '-100', 'points_redeem')], '2'));
    await loadPoints();
    expect(new URL(calls[0]!.request.url).searchParams.get('cursor')).toBe('');
    expect(rewardsState.points).toMatchObject({ balance: '2500', rule, next: '2', loaded: true });
    expect(hasMore(rewardsState.points)).toBe(true);

    const next = stubFetch(pointsPage([entry(2, '-100', 'points_redeem'), entry(1, '2500')], null));
    await loadPoints({ more: true });
    expect(new URL(next.calls[0]!.request.url).searchParams.get('cursor')).toBe('2');
    expect(rewardsState.points.lists.map((item) => item.id)).toEqual([3, 2, 1]);
    expect(hasMore(rewardsState.points)).toBe(false);
  });

  it('redeems (a GET sent as a write), then refreshes the history and the balances', async () => {
    const { calls } = stubFetch(envelope(1, 'ok', { points: '250', usdt: '2.50000000', balance: '2250' }), () =>
      new URL(calls.at(-1)!.request.url).pathname === '/api/users/balances'
        ? envelope(1, 'ok', { lists: [{ asset: 'POINT', available: '2250', frozen: '0' }], page: 1, total: 1 })
        : pointsPage([entry(4, '-250', 'points_redeem')], null, '2250'),
    );
    const answer = await redeem('250');
    expect(answer.usdt).toBe('2.50000000');
    const first = calls[0]!.request;
    expect(first.method).toBe('GET');
    expect(new URL(first.url).pathname).toBe('/api/users/ptomoney');
    expect(new URL(first.url).searchParams.get('number')).toBe('250');
    expect(first.headers.get('idempotency-key')).toBeTruthy();
    expect(rewardsState.points.balance).toBe('2250');
    expect(rewardsState.points.lists.map((item) => item.id)).toEqual([4]);
    expect(userBalances.lists).toEqual([{ asset: 'POINT', available: '2250', frozen: '0' }]);
  });

  it('forgets levels and points when the session changes', async () => {
    stubFetch(pointsPage([entry(1, '2500')], null));
    await loadPoints();
    session.token = 'token-b';
    await settle();
    expect(rewardsState.points).toMatchObject({ lists: [], loaded: false, balance: null, rule: null });
    expect(rewardsState.progress).toBeNull();
  });
});
