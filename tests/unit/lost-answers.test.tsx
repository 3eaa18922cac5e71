// @vitest-environment jsdom
// A write that moves funds whose answer was lost is kept on the device, the server is asked what became of it by its
// Idempotency-Key, and the customer is told (lib/lost-answers.ts, app/LostAnswerDialog.tsx).
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { api } from '../../src/lib/api.ts';
import { lockupSubscribe } from '../../src/api-contract/lockup.ts';
import { submitWithdraw } from '../../src/api-contract/funds.ts';
import { changePassword } from '../../src/api-contract/account.ts';
import { lostAnswers } from '../../src/lib/lost-answers-state.ts';
import { askAboutLostWrites, keepLostWrite } from '../../src/features/lost-answers/lost-answers.ts';
import { onLostAnswer } from '../../src/lib/api.ts';
import { session } from '../../src/lib/session.ts';
import LostAnswerDialog from '../../src/features/lost-answers/LostAnswerDialog.tsx';
import { FUNDS_WRITES } from '../../src/features/lost-answers/funds-writes.ts';
import { inputShapes } from '../../src/api-contract/registry.ts';
import { convertSmallBalances, placeContract } from '../../src/api-contract/contracts.ts';
import { submitRecharge } from '../../src/api-contract/funds.ts';
import { transferIn, transferOut } from '../../src/api-contract/liquidity.ts';
import { placeOption } from '../../src/api-contract/options.ts';
import { redeemPoints } from '../../src/api-contract/rewards.ts';
import { drawBlindBox } from '../../src/api-contract/blindbox.ts';
import { envelope, mountPoint, resetClientState, stubFetch } from './helpers.ts';
import { renderInApp } from './render-in-app.tsx';

const networkError = () => new TypeError('Failed to fetch');
const lost = Array.from({ length: 5 }, () => networkError);
const subscription = { product_id: '3', amount: '150' };
const view = mountPoint();
/** The dialog's text as the customer reads it. */
const dialogText = async () => {
  await renderInApp(view, <LostAnswerDialog />);
  return view.container.querySelector('[role=alertdialog]')?.textContent ?? '';
};

beforeEach(async () => {
  resetClientState();
  await Promise.resolve();
  session.token = 'token-1';
  lostAnswers.waiting = [];
  lostAnswers.told = [];
  onLostAnswer(keepLostWrite);
});
afterEach(() => {
  vi.useRealTimers();
  resetClientState();
});
const DAY_MS = 86_400_000;
/** Moves the device's clock (Date only: the calls' own timers run as they do). */
const clockAt = (at: number) => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(at);
};
const TOO_OLD = 'It was sent too long ago for us to check whether it went through.';

const askedAbout = (call: { body: string }) => Object.fromEntries(new URLSearchParams(call.body));

it("names the funds writes by their endpoints' paths, with amount fields their inputs have", () => {
  const endpoints = [
    placeOption,
    placeContract,
    convertSmallBalances,
    lockupSubscribe,
    transferIn,
    transferOut,
    submitWithdraw,
    submitRecharge,
    drawBlindBox,
    redeemPoints,
  ];
  expect(Object.keys(FUNDS_WRITES).sort()).toEqual(endpoints.map((endpoint) => endpoint.path).sort());
  for (const endpoint of endpoints) {
    expect(endpoint.readOnly).toBe(false);
    const field = FUNDS_WRITES[endpoint.path]!;
    if (field) expect(inputShapes(endpoint.input).some((shape) => field in shape)).toBe(true);
  }
});

describe('a write that moves funds whose answer was lost', () => {
  it('is kept with its key and amount only, never its payment password; other writes are not kept', async () => {
    stubFetch(...lost);
    await expect(
      api(submitWithdraw, { target: 'wallet', target_id: '3', amount: '99.5', paypass: '123456' }),
    ).rejects.toThrow();
    await expect(
      api(changePassword, { old_password: 'abc12345', password: 'abc12346', repassword: 'abc12346' } as never),
    ).rejects.toThrow();
    expect(lostAnswers.waiting).toEqual([
      { path: submitWithdraw.path, key: expect.any(String), amount: '99.5', sentAt: expect.any(Number) },
    ]);
    expect(JSON.stringify(lostAnswers.waiting)).not.toContain('123456');
  });

  it('went through: the customer is told not to place it again, and its key stays for a second tap', async () => {
    const { calls } = stubFetch(
      ...lost,
      envelope(1, '', { state: 'applied', msg: null, received_at: '2026-12-05T08:00:00.000Z' }),
      envelope(1, '', { id: 7 }),
    );
    await expect(api(lockupSubscribe, subscription)).rejects.toThrow();
    const key = calls[0]!.request.headers.get('idempotency-key');
    await askAboutLostWrites();
    expect(askedAbout(calls[5]!)).toEqual({ path: '/lockup/subscribe', key, sent_at: expect.any(String) });
    expect(lostAnswers.waiting).toEqual([]);
    expect(lostAnswers.told).toMatchObject([{ state: 'applied', amount: '150', key }]);
    // A second tap of the same subscription carries the same key: the server replays its answer, nothing twice.
    await api(lockupSubscribe, subscription).catch(() => undefined);
    expect(calls.at(-1)!.request.headers.get('idempotency-key')).toBe(key);

    expect(await dialogText()).toContain('Lock-up subscription of 150 USDT');
    expect(await dialogText()).toContain('It went through');
    // The amount with its unit is one left-to-right element, which a right-to-left translation places whole.
    expect(view.container.querySelector('[role=alertdialog] strong [dir="ltr"]')?.textContent).toBe('150 USDT');
  });

  it('never received: the customer may place it again, and the next tap is a new key', async () => {
    const { calls } = stubFetch(
      ...lost,
      envelope(1, '', { state: 'not_received', msg: null, received_at: null }),
      envelope(1, '', { id: 8 }),
    );
    await expect(api(lockupSubscribe, subscription)).rejects.toThrow();
    const key = calls[0]!.request.headers.get('idempotency-key');
    await askAboutLostWrites();
    expect(lostAnswers.told).toMatchObject([{ state: 'not_received' }]);
    await api(lockupSubscribe, subscription);
    expect(calls.at(-1)!.request.headers.get('idempotency-key')).not.toBe(key);

    expect(await dialogText()).toContain('It did not reach us, so nothing was done.');
  });

  it('refused: the refusal as the server answered it', async () => {
    stubFetch(...lost, envelope(1, '', { state: 'refused', msg: 'Insufficient balance!', received_at: null }));
    await expect(api(lockupSubscribe, subscription)).rejects.toThrow();
    await askAboutLostWrites();
    expect(await dialogText()).toContain('It was not done: Insufficient balance!');
  });

  it('still in progress, or no answer to the question: kept and asked again later', async () => {
    stubFetch(...lost, envelope(1, '', { state: 'in_progress', msg: null, received_at: null }), ...lost);
    await expect(api(lockupSubscribe, subscription)).rejects.toThrow();
    await askAboutLostWrites();
    expect(lostAnswers.waiting).toHaveLength(1);
    expect(lostAnswers.told).toEqual([]);
    await askAboutLostWrites();
    expect(lostAnswers.waiting).toHaveLength(1);
  });

  it('asks with when the write was first sent, kept through a second tap lost under the same key', async () => {
    const first = Date.parse('2026-12-01T08:00:00.000Z');
    clockAt(first);
    const { calls } = stubFetch(
      ...lost,
      ...lost,
      envelope(1, '', { state: 'in_progress', msg: null, received_at: null }),
    );
    await expect(api(lockupSubscribe, subscription)).rejects.toThrow();
    vi.setSystemTime(first + 3_600_000);
    await expect(api(lockupSubscribe, subscription)).rejects.toThrow();
    const keys = new Set(calls.map((call) => call.request.headers.get('idempotency-key')));
    expect(keys.size).toBe(1);
    await askAboutLostWrites();
    expect(calls.at(-1)!.request.url).toMatch(/\/users\/write-outcome$/);
    expect(askedAbout(calls.at(-1)!).sent_at).toBe('2026-12-01T08:00:00.000Z');
  });

  it('too old to check, as the server says: the customer is told to look in their records, not to place it again', async () => {
    stubFetch(...lost, envelope(1, '', { state: 'expired', msg: null, received_at: null }));
    await expect(api(lockupSubscribe, subscription)).rejects.toThrow();
    await askAboutLostWrites();
    expect(lostAnswers.told).toMatchObject([{ state: 'expired', amount: '150' }]);
    const text = await dialogText();
    expect(text).toContain('Lock-up subscription of 150 USDT');
    expect(text).toContain(TOO_OLD);
    expect(text).toContain('Look for it in your account details and records before you place it again.');
    expect(text).not.toContain('You can place it again');
  });

  it('kept past the retention of its key and not asked (offline): told as too old to check, never sent again', async () => {
    const now = Date.parse('2026-12-05T08:00:00.000Z');
    clockAt(now);
    lostAnswers.waiting = [
      { path: submitWithdraw.path, key: 'key-old', amount: '99.5', sentAt: now - 33 * DAY_MS },
      { path: lockupSubscribe.path, key: 'key-young', amount: '150', sentAt: now - 2 * DAY_MS },
    ];
    const onLine = Object.getOwnPropertyDescriptor(Navigator.prototype, 'onLine')!;
    Object.defineProperty(navigator, 'onLine', { configurable: true, get: () => false });
    try {
      const { calls } = stubFetch();
      await askAboutLostWrites();
      expect(calls).toEqual([]);
    } finally {
      Object.defineProperty(navigator, 'onLine', onLine);
    }
    expect(lostAnswers.waiting.map((write) => write.key)).toEqual(['key-young']);
    expect(lostAnswers.told).toMatchObject([{ key: 'key-old', state: 'expired' }]);
    const text = await dialogText();
    expect(text).toContain('Withdrawal of 99.5');
    expect(text).toContain(TOO_OLD);
  });

  it('a page left open past the retention sends the same write again under a new key, not the old one', async () => {
    const first = Date.parse('2026-11-01T08:00:00.000Z');
    clockAt(first);
    const { calls } = stubFetch(...lost, envelope(1, '', { id: 9 }));
    await expect(api(lockupSubscribe, subscription)).rejects.toThrow();
    const key = calls[0]!.request.headers.get('idempotency-key');
    vi.setSystemTime(first + 33 * DAY_MS);
    await api(lockupSubscribe, subscription);
    expect(calls.at(-1)!.request.headers.get('idempotency-key')).not.toBe(key);
  });

  it('a device clock set back after the loss still sends the same write under its key: it is young', async () => {
    const first = Date.parse('2026-12-01T08:00:00.000Z');
    clockAt(first);
    const { calls } = stubFetch(...lost, envelope(1, '', { id: 10 }));
    await expect(api(lockupSubscribe, subscription)).rejects.toThrow();
    const key = calls[0]!.request.headers.get('idempotency-key');
    vi.setSystemTime(first - 40 * DAY_MS);
    await api(lockupSubscribe, subscription);
    expect(calls.at(-1)!.request.headers.get('idempotency-key')).toBe(key);
  });
});
