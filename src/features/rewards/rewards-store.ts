// VIP levels (by cumulative recharge) and points (a balance redeemed for USDT,
// with its history): the calls, the state the two pages read, and their small display rules.
import Big from 'big.js';
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { i18n } from '@lingui/core';
import { msg } from '@lingui/core/macro';
import {
  levelFor,
  levelProgress,
  pointRecords,
  pointsValue,
  redeemPoints,
  vipLevels,
  type LevelProgress,
  type PointEntry,
  type PointRedemption,
  type PointsRule,
  type VipLevel,
} from '../../api-contract/rewards.ts';
import { ledgerKindName } from '../../api-contract/ledger-kinds.ts';
import { texts } from '../../api-contract/texts.ts';
import { api, errorText } from '../../lib/api.ts';
import { cursorLoader } from '../../lib/paged-list.ts';
import { refreshBalances } from '../../lib/balances.ts';
import { formatPoints } from '../../lib/points.ts';
import { currentLocale, intlLocale } from '../../lib/i18n.ts';
import { readAmount } from '../../lib/typed-amount.ts';
import { session } from '../../lib/session.ts';
import { firstError } from '../../lib/validate.ts';

export const rewardsState = proxy({
  levels: [] as VipLevel[],
  progress: null as LevelProgress | null,
  vipLoaded: false,
  vipFailure: null as string | null,
  points: {
    lists: [] as PointEntry[],
    next: null as string | null,
    loaded: false,
    failure: null as string | null,
    balance: null as string | null,
    rule: null as PointsRule | null,
  },
});

let latestVip = 0;

// ---- VIP --------------------------------------------------------------------------------------

/** The table of levels and where the user stands, together. */
export async function loadVip(): Promise<void> {
  const request = ++latestVip;
  const loading = !rewardsState.vipLoaded;
  try {
    const [levels, progress] = await Promise.all([
      api(vipLevels, undefined, { loading }),
      api(levelProgress, undefined, { loading }),
    ]);
    if (request !== latestVip) return;
    Object.assign(rewardsState, { levels: levels.lists, progress, vipLoaded: true, vipFailure: null });
  } catch (error) {
    if (request !== latestVip) return;
    rewardsState.vipFailure = errorText(error);
    throw error;
  }
}

/** The level to highlight: the server's answer, else the highest level whose start (realValue) the cumulative
 * recharge reaches. */
export function currentLevel(
  levels: readonly VipLevel[],
  progress: Pick<LevelProgress, 'level'> | null,
  rechargeTotal: string | undefined,
): number {
  if (progress) return progress.level;
  return rechargeTotal === undefined ? 0 : levelFor(rechargeTotal, levels);
}

/** A level's range of cumulative recharge (USDT): from its realValue (20 for the first level, else the previous
 * level's value) up to its value. */
export const levelRange = (level: Pick<VipLevel, 'realValue' | 'value'>) => ({
  from: level.realValue,
  to: level.value,
});

/**
 * How far the cumulative recharge has come from the current level's start to the next level's,
 * 0-100. A bar's width on screen, never money: the amounts themselves stay decimal strings.
 */
export function progressPercent(
  progress: Pick<LevelProgress, 'level' | 'recharge_total' | 'next_start'>,
  levels: readonly VipLevel[],
): number {
  if (progress.next_start === null) return 100;
  const start = new Big(levels.find((level) => level.level === progress.level)?.realValue ?? '0');
  const span = new Big(progress.next_start).minus(start);
  if (span.lte(0)) return 100;
  const done = new Big(progress.recharge_total).minus(start).div(span).times(100);
  if (done.lte(0)) return 0;
  return done.gte(100) ? 100 : Number(done.toFixed(1));
}

// ---- Points -----------------------------------------------------------------------------------

/** The head of the history (with the balance and rule; new entries on top); `more` adds the next page. */
const pointsHistory = cursorLoader(
  () => rewardsState.points,
  (cursor, loading) => api(pointRecords, { cursor }, { loading }),
  {
    accepted: (answer) =>
      Object.assign(rewardsState.points, {
        balance: answer.balance,
        rule: { usdt_per_point: answer.usdt_per_point, min_points: answer.min_points },
      }),
  },
);
export const loadPoints = pointsHistory.load;

/**
 * What the points field's text reads as: whole points in ASCII digits ('' for an empty field), or why it is not
 * whole points (translated) and whether typing on could still make it so ('1,' on its way to '1,000').
 */
export type PointsReading = { ok: true; points: string } | { ok: false; problem: string; unfinished: boolean };

/** The decimal marks a points text may hold (ASCII and Arabic, after NFKC): points are whole, so each is refused. */
const DECIMAL_MARKS = /[.\u066b]/u;
const wholePointsOnly = msg`Points are whole numbers: enter digits only, without a decimal mark or a sign.`;

/**
 * Reads the points field as the app's number fields read what is typed (lib/typed-amount.ts, in the app's language
 * `locale`): digits of every script the app reads (Thai ๑๒๓, Arabic-Indic ١٢٣, Devanagari १२३, full-width), digit
 * groups ('1,000'); a decimal mark, a sign or anything else is refused, never dropped, so '100.5' is not 1005 points.
 */
export function readPoints(typed: string, locale = intlLocale(currentLocale())): PointsReading {
  const read = readAmount(typed, locale);
  if (read.ok && !DECIMAL_MARKS.test(typed.normalize('NFKC'))) return { ok: true, points: read.value };
  const problem = !read.ok && read.problem === 'hidden' ? texts.hiddenCharacters : wholePointsOnly;
  return { ok: false, problem: i18n._(problem), unfinished: !read.ok && read.unfinished };
}

/** The whole points of a balance, as the "All" shortcut fills in. */
export const wholePoints = (balance: string) => new Big(balance).round(0, Big.roundDown).toFixed(0);

/** A history entry's amount with its sign: "+2,500", "−100". */
export function formatSignedPoints(value: string): string {
  const amount = new Big(value);
  return `${amount.lt(0) ? '−' : amount.gt(0) ? '+' : ''}${formatPoints(value)}`;
}

/** What the typed points would pay in USDT, or null while the field holds no whole number of points. */
export function redeemPreview(typed: string, rule: Pick<PointsRule, 'usdt_per_point'> | null): string | null {
  const read = readPoints(typed);
  const points = read.ok ? read.points : '';
  return rule && /^[1-9]\d{0,11}$/.test(points) ? pointsValue(points, rule.usdt_per_point) : null;
}

/** The first rule a redemption of the typed points breaks (translated), or null: whole points, a number, the minimum,
 * the balance. */
export function redeemProblem(
  typed: string,
  rule: Pick<PointsRule, 'min_points'> | null,
  balance: string | null,
): string | null {
  const read = readPoints(typed);
  if (!read.ok) return read.problem;
  const points = read.points;
  const problem = firstError(redeemPoints.input, { number: points });
  if (problem) return problem;
  if (rule && new Big(points).lt(rule.min_points)) {
    // Named first: Lingui's extractor cannot read a spread inside i18n._().
    const text = { ...texts.minimumPoints, values: { 0: formatPoints(rule.min_points) } };
    return i18n._(text);
  }
  if (balance !== null && new Big(points).gt(balance)) return i18n._(texts.notEnoughPoints);
  return null;
}

/** Redeems the points; the balance, the history and the USDT balance are brought up to date. */
export async function redeem(points: string): Promise<PointRedemption> {
  const answer = await api(redeemPoints, { number: points });
  rewardsState.points.balance = answer.balance;
  await Promise.all([loadPoints().catch(() => undefined), refreshBalances().catch(() => undefined)]);
  return answer;
}

/** What a history entry was for (the one list of names: api-contract/ledger-kinds.ts). */
export const pointKindLabel = (kind: string): string => ledgerKindName(kind, (text) => i18n._(text));

// Another session (logout, another user) must never see this one's levels and points.
subscribeKey(session, 'token', () => {
  latestVip += 1;
  pointsHistory.cancel();
  Object.assign(rewardsState, { levels: [], progress: null, vipLoaded: false, vipFailure: null });
  Object.assign(rewardsState.points, {
    lists: [],
    page: 0,
    total: 0,
    loaded: false,
    failure: null,
    balance: null,
    rule: null,
  });
});
