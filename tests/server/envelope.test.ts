// Every answer is { ret, msg, data } — successes, refusals, unknown routes, bad bodies,
// the rate limiter's 429 and server faults alike — with a readable msg and never a stack.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { MINUTE_LEFT } from './helpers.ts';
import { login, userInfo } from '../../src/api-contract/account.ts';
import { config } from '../../src/api-contract/content.ts';
import { seedDemo, DEMO_ACCOUNT } from '../../src/server/db/seed.ts';

let h: Harness;
let limited: Harness;
beforeAll(async () => {
  h = await startHarness();
  await seedDemo(h.database.db);
  // A second server whose login limit is 3 a minute, to see the limiter's answer.
  limited = await startHarness({ authRateLimitPerMinute: 3 });
});
afterAll(async () => {
  await h.close();
  await limited.app.close();
});

const NOT_FOUND = { ret: 0, msg: 'The requested resource was not found', data: null };

it.each([
  ['GET', '/api/no/such/call'],
  ['POST', '/api/users/nothing'],
  ['GET', '/api/users/login'],
  ['POST', '/api/users/info'],
  ['GET', '/nothing-here'],
] as const)('%s %s answers HTTP 404 with the not-found envelope', async (method, url) => {
  const response = await h.app.inject({ method, url, headers: { lang: 'en' } });
  expect(response.statusCode).toBe(404);
  expect(response.headers['content-type']).toMatch(/^application\/json/);
  expect(response.json()).toEqual(NOT_FOUND);
});

it('an unknown picture answers HTTP 404 with its own envelope, never cached', async () => {
  const response = await h.app.inject({
    method: 'GET',
    url: '/api/uploads/not-a-real-upload-id',
    headers: { lang: 'en' },
  });
  expect(response.statusCode).toBe(404);
  expect(response.headers['cache-control']).toBe('no-store');
  expect(response.json()).toEqual({ ret: 0, msg: 'The picture could not be loaded.', data: null });
});

it('a success answers ret 1, msg Success and the data', async () => {
  const res = await h.call(login, { username: DEMO_ACCOUNT.username, password: DEMO_ACCOUNT.password });
  expect(res).toEqual({ ret: 1, msg: 'Success', data: { token: expect.any(String), device: expect.any(String) } });
  const info = await h.call(userInfo, {}, { token: res.data.token });
  expect(Object.keys(info).sort()).toEqual(['data', 'msg', 'ret']);
});

it('a body that is not valid JSON answers HTTP 400 with the bad-request envelope', async () => {
  const response = await h.app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { lang: 'en', 'content-type': 'application/json' },
    payload: '{"username":',
  });
  expect(response.statusCode).toBe(400);
  expect(response.json()).toEqual({ ret: 0, msg: 'Bad request', data: null });
});

it('a body that is plain text is refused with a readable text, not a validator message', async () => {
  const response = await h.app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { lang: 'en', 'content-type': 'text/plain' },
    payload: 'username=demo',
  });
  expect(response.json()).toEqual({ ret: 0, msg: 'The request is not valid!', data: null });
});

it("a repeated form field is refused with that field's text", async () => {
  const response = await h.app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'username=a&username=b&password=x',
  });
  expect(response.json()).toEqual({
    ret: 0,
    msg: 'Please enter your username and password first!',
    data: null,
    field: 'username',
  });
});

it('an unsupported body type answers an envelope with HTTP 415', async () => {
  const response = await h.app.inject({
    method: 'POST',
    url: '/api/users/login',
    headers: { lang: 'en', 'content-type': 'application/xml' },
    payload: '<login/>',
  });
  expect(response.statusCode).toBe(415);
  expect(response.json()).toEqual({ ret: 0, msg: expect.any(String), data: null });
  expect(response.body).not.toMatch(/Error|stack|FST_/);
});

it("the login limiter answers HTTP 429 with an envelope once the minute's calls are used", async () => {
  const attempt = () =>
    limited.app.inject({
      method: 'POST',
      url: '/api/users/login',
      headers: { lang: 'en', 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'username=someone&password=abc123',
    });
  for (let i = 0; i < 3; i++) {
    const response = await attempt();
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ ret: 0, msg: 'Wrong username or password!', data: null });
  }
  const blocked = await attempt();
  expect(blocked.statusCode).toBe(429);
  // What is left of the minute (retry-after, in seconds), said in seconds.
  expect(Number(blocked.headers['retry-after'])).toBeGreaterThan(0);
  expect(blocked.json()).toEqual({ ret: 0, msg: expect.stringMatching(MINUTE_LEFT), data: null });

  // Only the login calls of that address are limited.
  expect((await limited.call(config, { act: 'system' })).ret).toBe(1);
  expect((await limited.call(login, { username: 'someone', password: 'abc123' }, { ip: '10.0.0.2' })).msg).toBe(
    'Wrong username or password!',
  );
});

it('a server fault answers HTTP 500 with an envelope and no stack', async () => {
  await limited.database.close(); // the database goes away under the running server
  const response = await limited.app.inject({
    method: 'GET',
    url: '/api/other/config?act=system',
    headers: { lang: 'en' },
  });
  expect(response.statusCode).toBe(500);
  expect(response.json()).toEqual({ ret: 0, msg: 'Internal server error', data: null });
});
