// @vitest-environment jsdom
// A write that moves funds whose answer was lost is kept on the device, the server is asked what became of it by its
// Idempotency-Key, and the customer is told (lib/lost-answers.ts, app/LostAnswerDialog.tsx).
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
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
afterEach(resetClientState);

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
    expect(askedAbout(calls[5]!)).toEqual({ path: '/lockup/subscribe', key });
    expect(lostAnswers.waiting).toEqual([]);
    expect(lostAnswers.told).toMatchObject([{ state: 'applied', amount: '150', key }]);
    // A second tap of the same subscription carries the same key: the server replays its answer, nothing twice.
    await api(lockupSubscribe, subscription).catch(() => undefined);
    expect(calls.at(-1)!.request.headers.get('idempotency-key')).toBe(key);

    expect(await dialogText()).toContain('Lock-up subscription of 150 USDT');
    expect(await dialogText()).toContain('It went through');
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
});
