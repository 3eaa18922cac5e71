// The most a reward an operator sets may pay one customer: a welfare task's reward, the referral reward per friend, a
// blind box prize (a coin's valued at its latest recorded price), a step of the daily check-in ladder.
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

/** How a refusal names the reward, and what a reward paid in a coin is valued at. */
export interface CapOptions {
  /** What the refusal calls the reward (default: the request field): a blind box prize's name. */
  named?: string;
  /** The latest recorded price in USDT of each coin a reward may pay in: a reward in a coin with one is bounded by
   * what REWARD_MAX_USDT buys at it; a coin without one has a bound of 0 (unknown is not small). */
  coinPrices?: ReadonlyMap<string, string>;
}

/** The bound of a reward in `asset` and the setting that makes it; a coin's as `options.coinPrices` values it. */
function capOf(caps: RewardCaps, asset: string, { coinPrices }: CapOptions): { cap: string; setting: string } {
  if (Object.hasOwn(caps, asset))
    return { cap: caps[asset as keyof RewardCaps], setting: SETTING_OF[asset as keyof RewardCaps] };
  if (!coinPrices) return { cap: '0', setting: '' };
  const price = coinPrices.get(asset);
  // Rounded down to the 8 decimals an amount is written with: the bound never buys more than REWARD_MAX_USDT.
  const cap = price === undefined ? '0' : new Big(caps.USDT).div(price).round(8, Big.roundDown).toFixed();
  return { cap, setting: SETTING_OF.USDT };
}

/**
 * Refuses a reward of `amount` `asset` above its bound in `caps`, about the request field `field` (`reward`,
 * `amount`, `ladder`, `table`, `stock`): "reward" is 500 USDT: a reward pays one customer at most 100 USDT
 * (REWARD_MAX_USDT). A coin is bounded by its price in `options.coinPrices`; any other asset with no bound of its
 * own is refused at any amount above 0: no reward may pay in it unbounded.
 * @throws Refusal consoleRewardAboveCap, its field `field`.
 */
export function checkRewardCap(
  caps: RewardCaps,
  asset: string,
  amount: string,
  field: string,
  options: CapOptions = {},
): void {
  const { cap, setting } = capOf(caps, asset, options);
  if (new Big(amount).lte(cap)) return;
  throw new Refusal(
    consoleTexts.consoleRewardAboveCap.id,
    { field: options.named ?? field, amount: new Big(amount).toFixed(), asset, cap: new Big(cap).toFixed(), setting },
    field,
  );
}
