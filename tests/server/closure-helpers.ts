// What the closure's server tests share: its refusals as the customer reads them, and the list of what closing would
// end with the account.
import { expect } from 'vitest';
import { closureEnding } from '../../src/api-contract/closure.ts';
import type { Harness } from './harness.ts';
import { refused } from './helpers.ts';

/** The refusal when the amounts the close carries are not the ones the server finds now. */
export const CLOSURE_CHANGED = refused(
  'The small amounts that would end with your account are not the ones you were shown: a balance or a price changed. Check the list again before closing.',
);

/** The refusal while `assets` (as the text names them, e.g. "USDT" or "BTC, USDT") hold the closure. */
export const closureHeldBy = (assets: string) =>
  refused(
    `Your account still holds ${assets}. Every balance, frozen ones included, must be zero before closing, apart from amounts too small to withdraw or sell.`,
  );

/** What closing would end with the account of `token` now (closureEnding's list; the call must succeed). */
export async function endingOf(h: Harness, token: string) {
  const answer = await h.call(closureEnding, {}, { token });
  expect(answer.ret).toBe(1);
  return answer.data.lists;
}
