// @vitest-environment jsdom
// The envelope rules, ret -1 handling (the session ends, login after 0.8 s) and the HTTP status texts, as lib/api
// applies them.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ApiError, api, errorText } from '../../src/lib/api.ts';
import { login, logout, userInfo, type UserInfo } from '../../src/api-contract/account.ts';
import { config } from '../../src/api-contract/content.ts';
import { httpStatusText, texts } from '../../src/api-contract/texts.ts';
import { session } from '../../src/lib/session.ts';
import { toasts } from '../../src/lib/toast.ts';
import { envelope, httpError, resetClientState, stubFetch, useFakeTimers } from './helpers.ts';

const user = { id: 7, username: 'customer1' } as UserInfo;

beforeEach(resetClientState);
afterEach(resetClientState);

describe('GET: only ret 1 succeeds', () => {
  it('resolves with data (and only data) on ret 1', async () => {
    stubFetch(envelope(1, 'ok', { scroll_notice: 'hello' }));
    await expect(api(config, { act: 'system' })).resolves.toEqual({ scroll_notice: 'hello' });
  });

  it.each([0, -1, 2, 3])('rejects with the server msg on ret %i', async (ret) => {
    stubFetch(envelope(ret, `server says ${ret}`, { scroll_notice: 'x' }));
    const error = await api(config, { act: 'system' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe(`server says ${ret}`);
    expect((error as ApiError).ret).toBe(ret);
  });
});

describe('POST: ret 0 and -1 fail, anything else succeeds', () => {
  it.each([0, -1])('rejects with the server msg on ret %i', async (ret) => {
    stubFetch(envelope(ret, `no: ${ret}`));
    await expect(api(login, { username: 'customer1', password: 'secret1' })).rejects.toThrow(`no: ${ret}`);
  });

  it.each([1, 2])('resolves with data on ret %i', async (ret) => {
    stubFetch(envelope(ret, 'fine', { token: `t${ret}` }));
    await expect(api(login, { username: 'customer1', password: 'secret1' })).resolves.toEqual({ token: `t${ret}` });
  });
});

describe('ret -1: the token is invalid', () => {
  it('clears session.token and session.user', async () => {
    session.token = 'old-token';
    session.user = user;
    stubFetch(envelope(-1, 'Your login has expired'));
    await expect(api(config, { act: 'system' })).rejects.toThrow('Your login has expired');
    expect(session.token).toBeNull();
    expect(session.user).toBeNull();
  });

  it('also clears the session on a POST', async () => {
    session.token = 'old-token';
    session.user = user;
    stubFetch(envelope(-1, 'expired'));
    await expect(api(logout, undefined, { redirectOnInvalidToken: false })).rejects.toThrow('expired');
    expect(session.token).toBeNull();
    expect(session.user).toBeNull();
  });

  it('shows msg and goes to login with `from` after 800 ms, not before', async () => {
    useFakeTimers();
    location.hash = '#/pages/mine/setting';
    session.token = 'old-token';
    stubFetch(envelope(-1, 'Please log in again'));
    await expect(api(userInfo)).rejects.toThrow('Please log in again');
    expect(toasts.current?.text).toBe('Please log in again');
    await vi.advanceTimersByTimeAsync(799);
    expect(location.hash).toBe('#/pages/mine/setting');
    await vi.advanceTimersByTimeAsync(1);
    expect(location.hash).toBe(`#/pages/login/login?from=${encodeURIComponent('/pages/mine/setting')}`);
    expect(location.hash).toBe('#/pages/login/login?from=%2Fpages%2Fmine%2Fsetting');
  });

  it.each([
    ['logged out', null],
    ['another user signed in', 'token-of-b'],
  ])(
    'a late answer for a session already ended here (%s) neither ends the session now nor leaves the page',
    async (_, now) => {
      useFakeTimers();
      location.hash = '#/pages/login/regist';
      session.token = 'token-of-a';
      stubFetch(() => {
        session.token = now;
        return envelope(-1, 'Please log in again');
      });
      await expect(api(userInfo)).rejects.toThrow('Please log in again');
      await vi.advanceTimersByTimeAsync(5000);
      expect(location.hash).toBe('#/pages/login/regist');
      expect(session.token).toBe(now);
      expect(toasts.current).toBeNull();
    },
  );

  it('keeps the query of the current route in `from`', async () => {
    useFakeTimers();
    location.hash = '#/pages/Withdraw/record?tab=2';
    stubFetch(envelope(-1, 'expired'));
    await expect(api(userInfo)).rejects.toThrow('expired');
    await vi.advanceTimersByTimeAsync(800);
    expect(location.hash).toBe(`#/pages/login/login?from=${encodeURIComponent('/pages/Withdraw/record?tab=2')}`);
  });

  it('does not navigate with { redirectOnInvalidToken: false }', async () => {
    useFakeTimers();
    location.hash = '#/pages/mine/setting';
    session.token = 'old-token';
    stubFetch(envelope(-1, 'expired'));
    await expect(api(userInfo, undefined, { redirectOnInvalidToken: false })).rejects.toThrow('expired');
    await vi.advanceTimersByTimeAsync(5000);
    expect(location.hash).toBe('#/pages/mine/setting');
    expect(session.token).toBeNull();
  });

  it('does not navigate for an endpoint without auth (login) by default', async () => {
    useFakeTimers();
    location.hash = '#/pages/mine/mine';
    stubFetch(envelope(-1, 'expired'));
    await expect(api(login, { username: 'customer1', password: 'secret1' })).rejects.toThrow('expired');
    await vi.advanceTimersByTimeAsync(5000);
    expect(location.hash).toBe('#/pages/mine/mine');
  });

  it('navigates for an endpoint without auth when the call asks for it', async () => {
    useFakeTimers();
    location.hash = '#/pages/mine/mine';
    stubFetch(envelope(-1, 'expired'));
    await expect(api(config, { act: 'system' }, { redirectOnInvalidToken: true })).rejects.toThrow('expired');
    await vi.advanceTimersByTimeAsync(800);
    expect(location.hash).toBe('#/pages/login/login?from=%2Fpages%2Fmine%2Fmine');
  });
});

describe('a non-200 answer rejects with the status text', () => {
  it.each([
    [400, 'Bad request'],
    [401, 'Unauthorized, please log in again'],
    [403, 'Access denied'],
    [404, 'The requested resource was not found'],
    [405, 'Request method not allowed'],
  ])('%i → "%s"', async (status, text) => {
    const { fetch } = stubFetch(httpError(status));
    const error = (await api(config, { act: 'system' }).catch((caught: unknown) => caught)) as ApiError;
    expect(error).toBeInstanceOf(ApiError);
    expect(error.message).toBe(text);
    expect(error.message).toBe(httpStatusText(status).message);
    expect(error.message).not.toBe(`status ${status}`);
    expect(error.status).toBe(status);
    expect(fetch).toHaveBeenCalledTimes(1);
  });

  it('a POST with 404 rejects the same way', async () => {
    stubFetch(httpError(404));
    await expect(api(login, { username: 'customer1', password: 'secret1' })).rejects.toThrow(texts.http404.message);
  });

  it('an answer that is not an envelope is an unknown error', async () => {
    stubFetch(
      new Response(JSON.stringify({ hello: 'world' }), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
    await expect(api(config, { act: 'system' })).rejects.toThrow(texts.unknownError.message);
  });
});

describe('errorText', () => {
  it('shows an ApiError as is and anything else as "Unknown error"', () => {
    expect(errorText(new ApiError('Wrong username or password!', 0))).toBe('Wrong username or password!');
    expect(errorText(new Error('internal detail'))).toBe('Unknown error');
    expect(errorText('boom')).toBe('Unknown error');
  });
});
