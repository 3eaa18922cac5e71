// A mobile carrier puts thousands of customers behind one address: logged-in calls are counted
// per account, anonymous and authentication calls per address.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { startHarness, type Harness } from './harness.ts';
import { registerByPhone } from './helpers.ts';
import { buildApp } from '../../src/server/http/app.ts';
import { coinList, balances } from '../../src/contract/markets.ts';
import { login } from '../../src/contract/account.ts';
import type { Endpoint } from '../../src/contract/endpoint.ts';

const CARRIER = '100.64.0.1';
let h: Harness;
let limited: FastifyInstance;

beforeAll(async () => {
  h = await startHarness();
  limited = await buildApp(
    { db: h.database.db, clock: h.clock, market: h.market, sender: { send: async () => {} } },
    { rateLimitPerMinute: 5, accountRateLimitPerMinute: 8, authRateLimitPerMinute: 3 },
  );
  await limited.ready();
});
afterAll(async () => {
  await limited.close();
  await h.close();
});

async function call(endpoint: Endpoint, { ip = CARRIER, token, form = '' }: { ip?: string; token?: string; form?: string } = {}) {
  const headers: Record<string, string> = { lang: 'en', ...(token ? { token } : {}) };
  const response = await limited.inject({
    method: endpoint.method,
    url: `/api${endpoint.path}${endpoint.method === 'GET' && form ? `?${form}` : ''}`,
    headers: endpoint.method === 'POST' ? { ...headers, 'content-type': 'application/x-www-form-urlencoded' } : headers,
    payload: endpoint.method === 'POST' ? form : undefined,
    remoteAddress: ip,
  });
  return { status: response.statusCode, body: response.json() as { ret: number; msg: string } };
}

const LIMITED = { status: 429, body: { ret: 0, msg: 'Too many attempts, please try again later!', data: null } };

it('customers behind one carrier address each get their own budget once logged in', async () => {
  const [alice, bob] = [await registerByPhone(h), await registerByPhone(h)];
  // Anonymous calls of the address use up its budget …
  for (let i = 0; i < 5; i++) expect((await call(coinList)).status).toBe(200);
  expect(await call(coinList)).toEqual(LIMITED);
  // … while each logged-in customer behind it keeps a budget of their own.
  for (let i = 0; i < 8; i++) expect(await call(balances, { token: alice.token })).toMatchObject({ status: 200, body: { ret: 1 } });
  expect(await call(balances, { token: alice.token })).toEqual(LIMITED);
  expect(await call(balances, { token: bob.token })).toMatchObject({ status: 200, body: { ret: 1 } });
  // Another address is not affected by the carrier's anonymous traffic.
  expect((await call(coinList, { ip: '198.51.100.7' })).status).toBe(200);
});

it('an account is one budget wherever it calls from', async () => {
  const carol = await registerByPhone(h);
  for (let i = 0; i < 8; i++) expect((await call(balances, { token: carol.token, ip: `203.0.113.${i + 1}` })).status).toBe(200);
  expect(await call(balances, { token: carol.token, ip: '203.0.113.99' })).toEqual(LIMITED);
});

it('an invalid token counts against the address, like an anonymous call', async () => {
  const ip = '192.0.2.44';
  for (let i = 0; i < 5; i++) expect((await call(balances, { token: `made-up-${i}`, ip })).body.ret).toBe(-1);
  expect(await call(balances, { token: 'made-up-again', ip })).toEqual(LIMITED);
});

it('login is limited per address, however many usernames are tried', async () => {
  const ip = '192.0.2.77';
  for (let i = 0; i < 3; i++) {
    expect(await call(login, { ip, form: `username=user${i}&password=abc12345` })).toMatchObject({ status: 200, body: { ret: 0 } });
  }
  expect(await call(login, { ip, form: 'username=user9&password=abc12345' })).toEqual(LIMITED);
  expect((await call(login, { ip: '192.0.2.78', form: 'username=user9&password=abc12345' })).status).toBe(200);
});
