import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { login, userInfo } from '../../src/api-contract/account.ts';
import { seedDemo } from '../../src/server/db/seed.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await seedDemo(h.database.db);
});
afterAll(() => h.close());

it('logs the demo user in and reads the info', async () => {
  const res = await h.call(login, { username: 'demo', password: 'demo1234' });
  expect(res.ret).toBe(1);
  const info = await h.call(userInfo, {}, { token: res.data.token });
  expect(info.data.username).toBe('demo');
});
