// A call that has no practice mode never spends real money for a customer who asked for the practice account: the
// blind box, lock-up, liquidity, points and the other calls taking no `account` refuse `account=practice` with a
// translated text (ret 0) and change nothing; `account=real` (or none) goes on as before; options and contracts,
// which have a practice mode, keep serving it.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { PAYPASS, customer, expectLedgerBalanced, grant, moneyState, refused } from './helpers.ts';
import { addTronWallet } from './funds-helpers.ts';
import { seedBlindBox } from '../../src/server/db/seed-blindbox.ts';
import { drawBlindBox } from '../../src/api-contract/blindbox.ts';
import { lockupProducts, lockupSubscribe } from '../../src/api-contract/lockup.ts';
import { transferIn, transferOut } from '../../src/api-contract/liquidity.ts';
import { earnBalance } from '../../src/api-contract/earn.ts';
import { redeemPoints } from '../../src/api-contract/rewards.ts';
import { dailyCheckIn } from '../../src/api-contract/check-in.ts';
import { submitWithdraw } from '../../src/api-contract/funds.ts';
import { optionTotals } from '../../src/api-contract/options.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await seedBlindBox(h.database.db, h.clock.now());
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

const PRACTICE_REFUSED = refused(
  'Practice is only for options and contracts: nothing was done here, as it would use your real money!',
);

describe('a call with no practice mode asked for the practice account', () => {
  it('is refused and moves no money, whatever it is', async () => {
    const user = await customer(h, '5000');
    await grant(h, user.id, '5000', 'POINT');
    const wallet = await addTronWallet(h, user.token);
    const week = (await h.call(lockupProducts)).data.lists.find((p) => p.days === 7)!;
    const practice = { account: 'practice' };
    const calls = [
      () => h.call(drawBlindBox, { pay: 'usdt', ...practice }, { token: user.token }),
      () => h.call(drawBlindBox, { pay: 'points', ...practice }, { token: user.token }),
      () => h.call(lockupSubscribe, { product_id: String(week.id), amount: '100', ...practice }, { token: user.token }),
      () => h.call(transferIn, { amount: '100', ...practice }, { token: user.token }),
      () => h.call(transferOut, { amount: '1', ...practice }, { token: user.token }),
      () => h.call(redeemPoints, { number: '1000', ...practice }, { token: user.token }),
      () => h.call(dailyCheckIn, { ...practice }, { token: user.token }),
      () =>
        h.call(
          submitWithdraw,
          { target: 'wallet', target_id: String(wallet.id), amount: '50', paypass: PAYPASS, ...practice },
          { token: user.token },
        ),
      // A read has no practice figure either: it never answers the real one as if it were.
      () => h.call(earnBalance, { type: 'regular', ...practice }, { token: user.token }),
    ];
    const before = await moneyState(h, user.id);
    const answers = [];
    for (const call of calls) answers.push(await call());
    expect(answers).toEqual(calls.map(() => PRACTICE_REFUSED));
    expect(await moneyState(h, user.id)).toEqual(before);
  });

  it('is refused in the caller’s language', async () => {
    const user = await customer(h, '100');
    const th = await h.call(drawBlindBox, { pay: 'usdt', account: 'practice' }, { token: user.token, lang: 'th' });
    expect(th.ret).toBe(0);
    expect(th.msg).not.toBe(PRACTICE_REFUSED.msg);
    expect(th.msg).toMatch(/[\u0E00-\u0E7F]/);
  });

  it('an account that is no account is no valid request; the real one (or none) goes on', async () => {
    const user = await customer(h, '5000');
    expect(await h.call(drawBlindBox, { pay: 'usdt', account: 'demo' }, { token: user.token })).toEqual(
      refused('The request is not valid!'),
    );
    expect((await h.call(drawBlindBox, { pay: 'usdt', account: 'real' }, { token: user.token })).ret).toBe(1);
    expect((await h.call(drawBlindBox, { pay: 'usdt' }, { token: user.token })).ret).toBe(1);
  });

  it('a call with a practice mode still serves it', async () => {
    const user = await customer(h, '100');
    expect(await h.call(optionTotals, { account: 'practice' }, { token: user.token })).toMatchObject({ ret: 1 });
  });
});
