// @vitest-environment jsdom
// A write that moves funds whose page is closed or reloaded while it is on its way (a customer on a stalled network
// gives up on the spinner): the request may have reached the server, no answer will ever come to that page. It is kept
// on the device before it leaves, so the next start asks the server what became of it and tells the customer, who
// would otherwise place it again under a new key. Another tab of the app open meanwhile, saving writes of its own,
// must not write over it.
import { expect, it, vi } from 'vitest';
import { submitWithdraw } from '../../src/api-contract/funds.ts';
import { placeOption } from '../../src/api-contract/options.ts';
import { customerInfo, envelope } from './helpers.ts';

const withdrawal = { target: 'wallet', target_id: '3', amount: '99.5', paypass: '123456' } as const;

/** A start of the app on this device: fresh modules, the stores loaded from IndexedDB (kept), as main.tsx does. */
async function start() {
  vi.resetModules();
  const storage = await import('../../src/lib/storage.ts');
  const api = await import('../../src/lib/api.ts');
  const { session } = await import('../../src/lib/session.ts');
  const { lostAnswers } = await import('../../src/lib/lost-answers-state.ts');
  const funds = await import('../../src/features/lost-answers/funds-writes.ts');
  const lost = await import('../../src/features/lost-answers/lost-answers.ts');
  await storage.hydrateStores();
  funds.watchFundsWrites();
  return { storage, api, session, lostAnswers, lost };
}

/** A fetch that answers `answers` in order (the last repeats), recording each request. */
function serve(app: Awaited<ReturnType<typeof start>>, ...answers: (() => Promise<Response>)[]) {
  const calls: { request: Request; body: string }[] = [];
  const fetch = async (request: Request) => {
    calls.push({ request, body: await request.clone().text() });
    return answers[Math.min(calls.length - 1, answers.length - 1)]!();
  };
  app.api.configureApi({ fetch: fetch as unknown as typeof globalThis.fetch, retryDelay: () => 0 });
  return calls;
}

/** The customer signed in on `tab`, saved as the app saves it. */
async function signIn(tab: Awaited<ReturnType<typeof start>>) {
  tab.session.token = 'token-1';
  tab.session.user = customerInfo({ id: 7 });
  await tab.storage.flushStores();
}

/** Sends the withdrawal from `tab`: the request leaves, its answer never comes to that page. Its Idempotency-Key. */
async function withdrawUnanswered(tab: Awaited<ReturnType<typeof start>>) {
  let sent!: () => void;
  const leaving = new Promise<void>((resolve) => (sent = resolve));
  const calls = serve(tab, () => {
    sent();
    return new Promise<Response>(() => undefined);
  });
  void tab.api.api(submitWithdraw, withdrawal).catch(() => undefined);
  await leaving;
  return calls[0]!.request.headers.get('idempotency-key');
}

/** Another tab buys an option and is answered. */
async function buyOption(tab: Awaited<ReturnType<typeof start>>) {
  serve(tab, async () => envelope(1, '', { id: 31 }));
  await tab.api.api(placeOption, { code: 'btc', direction: 'up', product_id: '1', amount: '10' });
  await tab.storage.flushStores();
}

it('a withdrawal on its way when the page closed is asked about at the next start, and the customer told', async () => {
  const first = await start();
  await signIn(first);
  // The request leaves; its answer never comes to this page.
  const key = await withdrawUnanswered(first);

  // The page is closed and opened again.
  const next = await start();
  expect(next.lostAnswers.waiting).toMatchObject([{ path: submitWithdraw.path, key, amount: '99.5' }]);
  const asked = serve(next, async () =>
    envelope(1, '', { state: 'applied', msg: null, received_at: '2026-12-05T08:00:00.000Z' }),
  );
  await next.lost.askAboutLostWrites();
  expect(new URL(asked[0]!.request.url).pathname).toBe('/api/users/write-outcome');
  expect(Object.fromEntries(new URLSearchParams(asked[0]!.body))).toMatchObject({ key, path: '/users/extract' });
  expect(next.lostAnswers.told).toMatchObject([{ key, state: 'applied', amount: '99.5' }]);
  expect(JSON.stringify(next.lostAnswers)).not.toContain('123456');
});

it('a write answered before the page closed is not asked about again', async () => {
  const first = await start();
  first.session.token = 'token-1';
  first.session.user = customerInfo({ id: 7 });
  serve(first, async () => envelope(1, '', { id: 12 }));
  await first.api.api(submitWithdraw, withdrawal);
  await first.storage.flushStores();
  const next = await start();
  expect(next.lostAnswers.waiting).toEqual([]);
  expect(next.lostAnswers.sending).toEqual([]);
});

it('a withdrawal on its way in a tab that closed is asked about, though another open tab sent its own since', async () => {
  const closing = await start();
  const staying = await start();
  for (const tab of [closing, staying]) await signIn(tab);
  // The first tab's request leaves; its answer never comes to that tab, which the customer then closes.
  const key = await withdrawUnanswered(closing);
  // The other tab, open all along, buys an option and is answered.
  await buyOption(staying);

  const next = await start();
  expect(next.lostAnswers.waiting.filter((write) => write.key === key)).toMatchObject([
    { path: submitWithdraw.path, amount: '99.5' },
  ]);
});

it('a withdrawal whose answer was lost in one tab is still kept when another tab sends a write', async () => {
  const losing = await start();
  const other = await start();
  for (const tab of [losing, other]) await signIn(tab);
  // The connection drops after the request left: no answer, the write kept to be asked about.
  const calls = serve(losing, () => Promise.reject(new TypeError('Failed to fetch')));
  await losing.api.api(submitWithdraw, withdrawal).catch(() => undefined);
  const key = calls[0]!.request.headers.get('idempotency-key');
  await losing.storage.flushStores();
  await buyOption(other);

  // The tab that lost it is closed before it could ask: the next start still asks.
  const next = await start();
  expect(next.lostAnswers.waiting.filter((write) => write.key === key)).toMatchObject([
    { path: submitWithdraw.path, amount: '99.5' },
  ]);
});
