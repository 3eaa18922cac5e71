// The most a reward an operator sets may pay one customer: a welfare task's reward, the referral reward per friend.
// Such rewards are paid without a review, to every customer who meets their condition, so a slip of the keyboard (a
// reward of 50000 USDT meant as 50 points) would credit many accounts at once before anyone noticed. Each asset a
// reward pays in has its own bound (REWARD_MAX_USDT, REWARD_MAX_POINTS; src/server/config-schema.ts), and a reward
// above it is refused with a text naming the field; one for more must be raised by configuration, deliberately.
import Big from 'big.js';
import { POINTS } from '../../api-contract/rewards.ts';
import { consoleTexts } from '../../api-contract/console-texts.ts';
import { Refusal } from './refusal.ts';

/** The most a reward may pay one customer, per asset it pays in: USDT (REWARD_MAX_USDT) and points
 * (REWARD_MAX_POINTS), each a decimal string. */
export interface RewardCaps {
  USDT: string;
  [POINTS]: string;
}

/** The bounds when none is configured: 20 times the largest USDT reward and 100 times the largest points reward the
 * product ships with (5 USDT for a certified friend, 100 points for a first recharge). */
export const DEFAULT_REWARD_CAPS: RewardCaps = { USDT: '100', [POINTS]: '10000' };

/** The setting that bounds each asset's rewards, named in the refusal so the operator knows what would raise it. */
const SETTING_OF: Record<keyof RewardCaps, string> = { USDT: 'REWARD_MAX_USDT', [POINTS]: 'REWARD_MAX_POINTS' };

/**
 * Refuses a reward of `amount` `asset` above its bound in `caps`, about the request field `field` (`reward`,
 * `amount`): "reward" is 500 USDT: a reward pays one customer at most 100 USDT (REWARD_MAX_USDT). An asset with no
 * bound of its own is refused at any amount above 0: no reward may pay in it unbounded.
 * @throws Refusal consoleRewardAboveCap, its field `field`.
 */
export function checkRewardCap(caps: RewardCaps, asset: string, amount: string, field: string): void {
  const cap = Object.hasOwn(caps, asset) ? caps[asset as keyof RewardCaps] : '0';
  if (new Big(amount).lte(cap)) return;
  const setting = Object.hasOwn(SETTING_OF, asset) ? SETTING_OF[asset as keyof RewardCaps] : '';
  throw new Refusal(
    consoleTexts.consoleRewardAboveCap.id,
    { field, amount: new Big(amount).toFixed(), asset, cap: new Big(cap).toFixed(), setting },
    field,
  );
}
