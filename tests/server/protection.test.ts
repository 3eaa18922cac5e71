// A customer's own limits and time-out through the calls they make: a tightening at once, a loosening
// 24 hours later on the server's clock (cancellable meanwhile), the time-out refusing every kind of
// order but no withdrawal, and the limits holding under 200 orders at once. Every refusal is a
// translated text and writes nothing.
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer, expectLedgerBalanced, grant, moneyState, refused } from './helpers.ts';
import { addTronWallet, withdrawn } from './funds-helpers.ts';
import {
  cancelProtectionLoosening,
  protection,
  setProtection,
  type Protection,
} from '../../src/api-contract/protection.ts';
import { optionProducts, placeOption } from '../../src/api-contract/options.ts';
import { placeContract } from '../../src/api-contract/contracts.ts';
import { lockupProducts, lockupSubscribe } from '../../src/api-contract/lockup.ts';
import { transferIn } from '../../src/api-contract/liquidity.ts';
import { drawBlindBox } from '../../src/api-contract/blindbox.ts';
import { seedBlindBox } from '../../src/server/db/seed-blindbox.ts';
import { protectionLimits, protectionPending } from '../../src/server/db/schema.ts';
import { openAllPending, settleAllDue } from '../../src/server/jobs/settlement.ts';
import { declaredEndpoints } from '../../src/server/http/declared-endpoints.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await seedBlindBox(h.database.db, h.clock.now());
});
afterAll(() => h.close());
afterEach(() => expectLedgerBalanced(h));

const HOUR = 3_600_000;
const iso = (ms: number) => new Date(ms).toISOString();
const at = (fromNowMs: number) => iso(h.clock.now().getTime() + fromNowMs);

async function set(token: string, setting: string, value: string): Promise<Protection> {
  const res = await h.call(setProtection, { setting, value }, { token });
  expect(res, JSON.stringify(res)).toMatchObject({ ret: 1 });
  return res.data;
}
async function read(token: string): Promise<Protection> {
  const res = await h.call(protection, {}, { token });
  expect(res.ret).toBe(1);
  return res.data;
}

let btcProduct = 0;
async function oneMinuteProduct() {
  btcProduct ||= (await h.call(optionProducts, { code: 'BTC' })).data.lists.find((p) => p.minutes === 1)!.id;
  return btcProduct;
}
/** A fresh BTC price at the harness clock's time: an option can be accepted. */
const tick = (price = '100000') => h.market.record([{ coin: 'BTC', at: h.clock.now(), price, volume: '1' }]);
const buy = async (token: string, amount = '10', direction: 'up' | 'down' = 'up') =>
  h.call(placeOption, { code: 'BTC', direction, amount, product_id: String(await oneMinuteProduct()) }, { token });

const storedOf = async (userId: number) => ({
  limits: await h.database.db.select().from(protectionLimits).where(eq(protectionLimits.userId, userId)),
  pending: await h.database.db.select().from(protectionPending).where(eq(protectionPending.userId, userId)),
});

describe('reading', () => {
  it('answers no limit, nothing used and no time-out for a customer who set nothing', async () => {
    const user = await customer(h);
    expect(await read(user.token)).toEqual({
      limits: {
        stake_day: '',
        stake_week: '',
        stake_month: '',
        loss_day: '',
        loss_week: '',
        loss_month: '',
        max_open_options: '',
        reminder_minutes: '',
        timeout_until: '',
      },
      pending: [],
      used: {
        stake_day: '0',
        stake_week: '0',
        stake_month: '0',
        loss_day: '0',
        loss_week: '0',
        loss_month: '0',
        open_stakes: '0',
        open_options: 0,
      },
      left: {
        stake_day: '',
        stake_week: '',
        stake_month: '',
        loss_day: '',
        loss_week: '',
        loss_month: '',
        open_options: '',
      },
      timeout_seconds_left: 0,
      now: h.clock.now().toISOString(),
    });
    expect(await storedOf(user.id)).toEqual({ limits: [], pending: [] });
  });
});

describe('tightening at once, loosening after 24 hours', () => {
  it('a new or lower limit is in force at once; a higher one waits 24 hours with its countdown', async () => {
    const user = await customer(h);
    expect((await set(user.token, 'stake_day', '100')).limits.stake_day).toBe('100');
    const lower = await set(user.token, 'stake_day', '50.50');
    expect(lower.limits.stake_day).toBe('50.5');
    expect(lower.pending).toEqual([]);

    const asked = h.clock.now().getTime();
    const higher = await set(user.token, 'stake_day', '200');
    expect(higher.limits.stake_day).toBe('50.5');
    expect(higher.pending).toEqual([
      {
        setting: 'stake_day',
        value: '200',
        requested_at: iso(asked),
        effective_at: iso(asked + 24 * HOUR),
        seconds_left: 24 * 3600,
      },
    ]);

    h.clock.advance(24 * HOUR - 1000);
    const almost = await read(user.token);
    expect(almost.limits.stake_day).toBe('50.5');
    expect(almost.pending).toMatchObject([{ setting: 'stake_day', seconds_left: 1 }]);
    h.clock.advance(1000);
    const due = await read(user.token);
    expect(due.limits.stake_day).toBe('200');
    expect(due.pending).toEqual([]);
  });

  it('removing a limit waits 24 hours; a tightening meanwhile drops the waiting loosening', async () => {
    const user = await customer(h);
    await set(user.token, 'loss_week', '300');
    expect((await set(user.token, 'loss_week', '')).pending).toMatchObject([{ setting: 'loss_week', value: '' }]);
    h.clock.advance(12 * HOUR);
    const tightened = await set(user.token, 'loss_week', '250');
    expect(tightened.limits.loss_week).toBe('250');
    expect(tightened.pending).toEqual([]);
    h.clock.advance(24 * HOUR);
    expect((await read(user.token)).limits.loss_week).toBe('250');

    await set(user.token, 'loss_week', '');
    h.clock.advance(24 * HOUR);
    expect((await read(user.token)).limits.loss_week).toBe('');
  });

  it('fewer open options is at once, more waits; the reminder changes at once either way', async () => {
    const user = await customer(h);
    await set(user.token, 'max_open_options', '5');
    expect((await set(user.token, 'max_open_options', '3')).limits.max_open_options).toBe('3');
    expect((await set(user.token, 'max_open_options', '8')).limits.max_open_options).toBe('3');
    await set(user.token, 'reminder_minutes', '30');
    const longer = await set(user.token, 'reminder_minutes', '90');
    expect(longer.limits.reminder_minutes).toBe('90');
    expect(longer.pending.map((p) => p.setting)).toEqual(['max_open_options']);
  });

  it('a second loosening no looser than the waiting one keeps its time; a looser one starts the 24 hours anew', async () => {
    const user = await customer(h);
    await set(user.token, 'stake_week', '100');
    const first = h.clock.now().getTime();
    await set(user.token, 'stake_week', '300');
    h.clock.advance(10 * HOUR);
    expect((await set(user.token, 'stake_week', '200')).pending).toMatchObject([
      { value: '200', effective_at: iso(first + 24 * HOUR) },
    ]);
    expect((await set(user.token, 'stake_week', '400')).pending).toMatchObject([
      { value: '400', effective_at: at(24 * HOUR) },
    ]);
  });

  it('cancels a waiting loosening, and refuses to cancel one that is not waiting', async () => {
    const user = await customer(h);
    await set(user.token, 'loss_day', '10');
    await set(user.token, 'loss_day', '100');
    const res = await h.call(cancelProtectionLoosening, { setting: 'loss_day' }, { token: user.token });
    expect(res).toMatchObject({ ret: 1, data: { limits: { loss_day: '10' }, pending: [] } });
    h.clock.advance(25 * HOUR);
    expect((await read(user.token)).limits.loss_day).toBe('10');
    expect(await h.call(cancelProtectionLoosening, { setting: 'loss_day' }, { token: user.token })).toEqual(
      refused('No change of this setting is waiting!'),
    );
    // Once its 24 hours have passed a loosening is in force: too late to cancel.
    await set(user.token, 'loss_day', '20');
    h.clock.advance(24 * HOUR);
    expect(await h.call(cancelProtectionLoosening, { setting: 'loss_day' }, { token: user.token })).toEqual(
      refused('No change of this setting is waiting!'),
    );
    expect((await read(user.token)).limits.loss_day).toBe('20');
  });
});

describe('the time-out', () => {
  it('must last at least 24 hours and at most about five years', async () => {
    const user = await customer(h);
    expect(
      await h.call(setProtection, { setting: 'timeout_until', value: at(23 * HOUR) }, { token: user.token }),
    ).toEqual(refused('A time-out lasts at least 24 hours!'));
    expect(
      await h.call(setProtection, { setting: 'timeout_until', value: at(6 * 366 * 24 * HOUR) }, { token: user.token }),
    ).toEqual(refused('A time-out lasts at most 5 years!'));
    expect(await storedOf(user.id)).toEqual({ limits: [], pending: [] });
  });

  it('refuses every paid play (options real and practice, contracts, lock-up, liquidity, blind box) until it ends, never a withdrawal', async () => {
    const user = await customer(h, '5000');
    await grant(h, user.id, '1000', 'POINT');
    const wallet = await addTronWallet(h, user.token);
    const until = at(48 * HOUR);
    const answer = await set(user.token, 'timeout_until', until);
    expect(answer.limits.timeout_until).toBe(until);
    expect(answer.timeout_seconds_left).toBe(48 * 3600);
    const text = `You are taking a time-out until ${until.slice(0, 10)} ${until.slice(11, 16)} UTC: no option, contract, lock-up or liquidity order and no blind box draw is accepted until then. Withdrawals remain possible.`;

    const week = (await h.call(lockupProducts)).data.lists.find((p) => p.days === 7)!;
    const orders = async () => {
      await tick();
      return [
        await buy(user.token),
        await h.call(
          placeContract,
          { code: 'BTC', side: 'buy', type: 'market', quantity: '0.001' },
          { token: user.token },
        ),
        await h.call(lockupSubscribe, { product_id: String(week.id), amount: '100' }, { token: user.token }),
        await h.call(transferIn, { amount: '100' }, { token: user.token }),
        await h.call(drawBlindBox, { pay: 'usdt' }, { token: user.token }),
        await h.call(drawBlindBox, { pay: 'points' }, { token: user.token }),
        await h.call(
          placeOption,
          {
            code: 'BTC',
            direction: 'up',
            amount: '10',
            product_id: String(await oneMinuteProduct()),
            account: 'practice',
          },
          { token: user.token },
        ),
      ];
    };
    const before = await moneyState(h, user.id);
    expect(await orders()).toEqual(Array.from({ length: 7 }, () => refused(text)));
    expect(await moneyState(h, user.id)).toEqual(before);
    await withdrawn(h, user.token, { target: 'wallet', target_id: String(wallet.id), amount: '50' });

    // Ending it, or making it shorter, waits 24 hours like any loosening: the time-out holds meanwhile.
    const ending = await set(user.token, 'timeout_until', '');
    expect(ending.limits.timeout_until).toBe(until);
    expect(ending.pending).toMatchObject([{ setting: 'timeout_until', value: '', seconds_left: 24 * 3600 }]);
    h.clock.advance(24 * HOUR - 1000);
    expect((await orders()).map((res) => res.msg)).toEqual(Array.from({ length: 7 }, () => text));
    h.clock.advance(1000);
    expect((await orders()).map((res) => res.ret)).toEqual([1, 1, 1, 1, 1, 1, 1]);
    expect((await read(user.token)).limits.timeout_until).toBe('');
  });

  it('a longer time-out is at once, a shorter one waits; it ends by itself at its time', async () => {
    const user = await customer(h, '100');
    const first = at(30 * HOUR);
    await set(user.token, 'timeout_until', first);
    const longer = at(40 * HOUR);
    expect((await set(user.token, 'timeout_until', longer)).limits.timeout_until).toBe(longer);
    const shorter = await set(user.token, 'timeout_until', at(25 * HOUR));
    expect(shorter.limits.timeout_until).toBe(longer);
    expect(shorter.pending).toMatchObject([{ setting: 'timeout_until', value: at(25 * HOUR) }]);
    h.clock.advance(40 * HOUR);
    await tick();
    expect((await buy(user.token)).ret).toBe(1);
    expect(await read(user.token)).toMatchObject({ limits: { timeout_until: '' }, timeout_seconds_left: 0 });
  });
});

describe('the limits on options', () => {
  it('counts stakes in rolling windows of 24 hours, 7 days and 30 days', async () => {
    const user = await customer(h, '1000');
    await set(user.token, 'stake_day', '25');
    await set(user.token, 'stake_week', '40');
    await tick();
    expect((await buy(user.token, '10')).ret).toBe(1);
    expect((await buy(user.token, '10')).ret).toBe(1);
    expect(await buy(user.token, '10')).toEqual(
      refused('Your limit of 25 USDT staked in 24 hours leaves 5 USDT for now!'),
    );
    expect((await buy(user.token, '5')).ret).toBe(1);
    const used = await read(user.token);
    expect(used.used).toMatchObject({ stake_day: '25', stake_week: '25', stake_month: '25', open_options: 3 });
    expect(used.left).toMatchObject({ stake_day: '0', stake_week: '15' });

    h.clock.advance(24 * HOUR);
    await tick();
    expect(await buy(user.token, '20')).toEqual(
      refused('Your limit of 40 USDT staked in 7 days leaves 15 USDT for now!'),
    );
    expect((await buy(user.token, '15')).ret).toBe(1);
  });

  it('counts what settled options lost and what open ones can still lose against a loss limit', async () => {
    const user = await customer(h, '1000');
    await set(user.token, 'loss_day', '25');
    await tick('100000');
    expect((await buy(user.token, '10', 'up')).ret).toBe(1);
    expect((await buy(user.token, '10', 'up')).ret).toBe(1);
    // Two open stakes of 10: 5 USDT more may be put at risk.
    expect(await buy(user.token, '10')).toEqual(
      refused('Your limit of 25 USDT lost in 24 hours leaves 5 USDT that may be put at risk for now!'),
    );
    h.clock.advance(1000);
    await tick('100000');
    await openAllPending(h.database.db, h.clock.now());
    h.clock.advance(60_000);
    await tick('99000');
    expect(await settleAllDue(h.database.db, h.clock.now())).toBe(2);
    const after = await read(user.token);
    expect(after.used).toMatchObject({ loss_day: '20', open_stakes: '0', open_options: 0 });
    expect(after.left.loss_day).toBe('5');
    expect((await buy(user.token, '6')).msg).toBe(
      'Your limit of 25 USDT lost in 24 hours leaves 5 USDT that may be put at risk for now!',
    );
    expect((await buy(user.token, '5')).ret).toBe(1);
  });

  it('200 orders at once never pass a stake limit: exactly as many as fit are accepted', async () => {
    const user = await customer(h, '10000');
    await set(user.token, 'stake_day', '555');
    await tick();
    const answers = await Promise.all(Array.from({ length: 200 }, () => buy(user.token, '10')));
    const accepted = answers.filter((res) => res.ret === 1);
    expect(accepted).toHaveLength(55);
    for (const res of answers.filter((answer) => answer.ret !== 1))
      expect(res).toEqual(refused('Your limit of 555 USDT staked in 24 hours leaves 5 USDT for now!'));
    const state = await read(user.token);
    expect(state.used).toMatchObject({ stake_day: '550', open_options: 55 });
    expect((await moneyState(h, user.id)).orders).toHaveLength(55);
  });

  it('200 orders at once never pass the most open options at once', async () => {
    const user = await customer(h, '10000');
    await set(user.token, 'max_open_options', '37');
    await tick();
    const answers = await Promise.all(Array.from({ length: 200 }, () => buy(user.token, '2')));
    expect(answers.filter((res) => res.ret === 1)).toHaveLength(37);
    for (const res of answers.filter((answer) => answer.ret !== 1))
      expect(res).toEqual(refused('You have reached your limit of 37 open options at once!'));
    expect((await read(user.token)).used.open_options).toBe(37);
  });
});

describe('nobody but the customer', () => {
  it('no console call changes a customer’s protection, and the customer’s calls change only their own', async () => {
    const consoleCalls = (await declaredEndpoints()).filter(({ endpoint }) => endpoint.console);
    expect(consoleCalls.length).toBeGreaterThan(10);
    expect(consoleCalls.filter(({ endpoint }) => /protection|time-?out/i.test(endpoint.path))).toEqual([]);
    const [one, other] = [await customer(h), await customer(h)];
    await set(one.token, 'stake_day', '10');
    await set(one.token, 'stake_day', '20');
    expect(await storedOf(other.id)).toEqual({ limits: [], pending: [] });
    expect(await h.call(cancelProtectionLoosening, { setting: 'stake_day' }, { token: other.token })).toEqual(
      refused('No change of this setting is waiting!'),
    );
    expect((await read(one.token)).pending).toHaveLength(1);
  });
});

describe('hostile input', () => {
  it('is refused with a translated text and writes nothing', async () => {
    const user = await customer(h);
    const cases: [Record<string, string>, string][] = [
      [{ setting: 'stake_dayy', value: '10' }, 'The request is not valid!'],
      [{ setting: 'updated_at', value: '10' }, 'The request is not valid!'],
      [{ value: '10' }, 'The request is not valid!'],
      [{ setting: 'stake_day', value: '-5' }, 'Please enter a valid amount!'],
      [{ setting: 'stake_day', value: '0' }, 'Please enter a valid amount!'],
      [{ setting: 'loss_month', value: '1e5' }, 'Please enter a valid amount!'],
      [{ setting: 'loss_month', value: '1000000000000' }, 'Please enter a valid amount!'],
      [{ setting: 'loss_month', value: '1.123456789' }, 'Please enter a valid amount!'],
      [{ setting: 'loss_month', value: "1' or 1=1 --" }, 'Please enter a valid amount!'],
      [{ setting: 'max_open_options', value: '0' }, 'The most open options must be a whole number from 1 to 1000!'],
      [{ setting: 'max_open_options', value: '1001' }, 'The most open options must be a whole number from 1 to 1000!'],
      [{ setting: 'max_open_options', value: '2.5' }, 'The most open options must be a whole number from 1 to 1000!'],
      [{ setting: 'reminder_minutes', value: '4' }, 'The reminder must be a whole number of minutes from 5 to 1440!'],
      [{ setting: 'timeout_until', value: 'tomorrow' }, 'Please choose when the time-out ends!'],
      [
        { setting: 'timeout_until', value: '2026-13-45T99:00:00Z' },
        'Please choose a date that exists on the calendar, from 2000-01-01 to 2199-12-31!',
      ],
      [
        { setting: 'timeout_until', value: '2027-02-30T10:00:00Z' },
        'Please choose a date that exists on the calendar, from 2000-01-01 to 2199-12-31!',
      ],
      [{ setting: 'timeout_until', value: '275760-09-13T00:00:00Z' }, 'Please choose when the time-out ends!'],
      [{ setting: 'stake_day', value: 'x'.repeat(5000) }, 'The request is not valid!'],
    ];
    for (const [input, text] of cases)
      expect(await h.call(setProtection, input, { token: user.token }), JSON.stringify(input).slice(0, 80)).toEqual(
        refused(text),
      );
    expect(await h.call(cancelProtectionLoosening, { setting: 'nope' }, { token: user.token })).toEqual(
      refused('The request is not valid!'),
    );
    expect(await storedOf(user.id)).toEqual({ limits: [], pending: [] });
    expect((await h.call(setProtection, { setting: 'stake_day', value: '10' })).ret).toBe(-1);
    expect((await h.call(protection, {})).ret).toBe(-1);
  });

  it('answers in the customer’s language', async () => {
    const user = await customer(h);
    const res = await h.call(
      setProtection,
      { setting: 'timeout_until', value: at(HOUR) },
      { token: user.token, lang: 'zh' },
    );
    expect(res).toEqual(refused('暂停交易至少为 24 小时！'));
  });
});
