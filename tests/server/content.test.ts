// Public content after the demo seed: system config by act, and slides by position (lists
// under data.lists), readable without a login.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startHarness, type Harness } from './harness.ts';
import { config, slides } from '../../src/api-contract/content.ts';
import { APP_VERSION } from '../../src/api-contract/constants.ts';
import { DEMO_CONFIG, seedDemo } from '../../src/server/db/seed.ts';

let h: Harness;
beforeAll(async () => {
  h = await startHarness();
  await seedDemo(h.database.db);
});
afterAll(() => h.close());

it('the system config carries the scroll notice, service link and Android download link', async () => {
  const res = await h.call(config, { act: 'system' });
  expect(res).toEqual({ ret: 1, msg: 'Success', data: DEMO_CONFIG.system });
  // At startup the app compares the version parameter v of this link with its own.
  expect(new URL(res.data.appurl_android!, 'http://host').searchParams.get('v')).toBe(String(APP_VERSION));
});

it('the share config carries the invitation text', async () => {
  expect(await h.call(config, { act: 'share' })).toEqual({
    ret: 1,
    msg: 'Success',
    data: { text: DEMO_CONFIG.share!.text },
  });
});

it('the about config carries the company profile', async () => {
  expect(await h.call(config, { act: 'about' })).toEqual({ ret: 1, msg: 'Success', data: DEMO_CONFIG.about });
});

it('the home slides come in their order under data.lists', async () => {
  const res = await h.call(slides, { position: 'home' });
  expect(res).toMatchObject({ ret: 1, msg: 'Success', data: { page: 1, total: 3 } });
  expect(res.data.lists.map(({ title, image, link }) => ({ title, image, link }))).toEqual([
    { title: 'Trade options in minutes', image: '/slides/slide-1.svg', link: '' },
    { title: 'Your funds, every movement recorded', image: '/slides/slide-2.svg', link: '' },
    { title: 'Invite friends and earn together', image: '/slides/slide-3.svg', link: '' },
  ]);
  for (const slide of res.data.lists) expect(slide.id).toEqual(expect.any(Number));
});

it('the mine-page slides (user1) are their own list', async () => {
  const res = await h.call(slides, { position: 'user1' });
  expect(res).toMatchObject({ ret: 1, data: { page: 1, total: 1 } });
  expect(res.data.lists).toEqual([
    { id: expect.any(Number), title: 'Complete your certification', image: '/slides/slide-2.svg', link: '' },
  ]);
});

it('seeding again adds no second copy of the config or slides', async () => {
  await seedDemo(h.database.db);
  expect((await h.call(slides, { position: 'home' })).data.total).toBe(3);
  expect((await h.call(config, { act: 'system' })).data).toEqual(DEMO_CONFIG.system);
});

it('content is readable with an expired token too (it needs no login)', async () => {
  expect((await h.call(config, { act: 'system' }, { token: 'expired-token' })).ret).toBe(1);
  expect((await h.call(slides, { position: 'home' }, { token: 'expired-token' })).ret).toBe(1);
});
