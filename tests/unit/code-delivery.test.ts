// @vitest-environment jsdom
// The code form follows its message. "Get code" asks the server to send a code, then
// asks how the message is doing (while the button says "Sending…"): sent, or the server's
// 'We could not send the code, please try again', never a silent wait.
import { beforeEach, describe, expect, it } from 'vitest';
import { followDelivery, sendVerificationCode } from '../../src/lib/codes.ts';
import { toasts } from '../../src/lib/toast.ts';
import { envelope, httpError, resetClientState, stubFetch } from './helpers.ts';

const NOT_SENT = 'We could not send the code, please try again';
const queued = envelope(1, 'Success', { resend_in: 60, delivery: '7.abcdefghijklmnopqrstuv' });
const sending = envelope(1, 'Success', { state: 'sending', attempts: 1 });
const sent = envelope(1, 'Success', { state: 'sent', attempts: 1 });
const failed = envelope(0, NOT_SENT);
const noWait = async () => {};
const settle = () => new Promise((resolve) => setTimeout(resolve, 0));

beforeEach(() => resetClientState());

describe('Get code', () => {
  it('says the code was sent once the server says so, asking with the reference it gave', async () => {
    const { calls } = stubFetch(queued, sending, sent);
    expect(await sendVerificationCode('email', ' a@b.co ', false, noWait)).toBe(true);
    expect(toasts.current?.text).toBe('The verification code has been sent!');
    expect(calls.map((call) => new URL(call.request.url).pathname)).toEqual([
      '/api/users/email/get',
      '/api/users/code/delivery',
      '/api/users/code/delivery',
    ]);
    expect(new URL(calls[1]!.request.url).searchParams.get('delivery')).toBe('7.abcdefghijklmnopqrstuv');
  });

  it("shows the server's 'could not send' when the message failed, and the countdown still says when to try again", async () => {
    stubFetch(queued, sending, failed);
    expect(await sendVerificationCode('sms', '0812345678', true, noWait)).toBe(true);
    expect(toasts.current?.text).toBe(NOT_SENT);
  });

  it('still sending after the first seconds: the countdown starts, and a later failure is still told', async () => {
    const answers = [queued, sending, sending, sending, sending, sending, failed];
    const { calls } = stubFetch(...answers);
    expect(await sendVerificationCode('sms', '0812345678', false, noWait)).toBe(true);
    expect(toasts.current).toBeNull();
    await settle();
    await settle();
    expect(toasts.current?.text).toBe(NOT_SENT);
    expect(calls).toHaveLength(answers.length);
  });

  it('a lost connection while asking is not a failure: it asks again', async () => {
    // Five network failures use up one ask (the client's own retries); the next ask is answered.
    const offline = Array.from({ length: 5 }, () => new TypeError('Failed to fetch'));
    const { calls } = stubFetch(...offline, sent);
    expect(await followDelivery('7.abcdefghijklmnopqrstuv', 3_000, 1_000, noWait)).toBe('sent');
    expect(calls).toHaveLength(6);
    expect(toasts.current).toBeNull();
  });

  it('a server without the reference (another host of the API contract): sent is all it says', async () => {
    const { calls } = stubFetch(envelope(1, 'Success', { resend_in: 60 }));
    expect(await sendVerificationCode('email', 'a@b.co', false, noWait)).toBe(true);
    expect(toasts.current?.text).toBe('The verification code has been sent!');
    expect(calls).toHaveLength(1);
  });

  it('a request that fails without a refusal (no answer, an HTTP error) says "Failed to get the verification code!"', async () => {
    for (const status of [404, 403]) {
      stubFetch(httpError(status));
      expect(await sendVerificationCode('sms', '0812345678', false, noWait)).toBe(false);
      expect(toasts.current?.text).toBe('Failed to get the verification code!');
    }
  });

  it('a refused request starts no countdown and asks nothing more', async () => {
    const { calls } = stubFetch(envelope(0, 'Please wait 42 seconds before requesting another code!'));
    expect(await sendVerificationCode('email', 'a@b.co', false, noWait)).toBe(false);
    expect(toasts.current?.text).toBe('Please wait 42 seconds before requesting another code!');
    expect(calls).toHaveLength(1);
  });
});
