// @vitest-environment jsdom
// A write that moves funds whose page is closed or reloaded while it is on its way (a customer on a stalled network
// gives up on the spinner): the request may have reached the server, no answer will ever come to that page. It is kept
// on the device before it leaves, so the next start asks the server what became of it and tells the customer, who
// would otherwise place it again under a new key.
import { expect, it, vi } from 'vitest';
import { submitWithdraw } from '../../src/api-contract/funds.ts';
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

it('a withdrawal on its way when the page closed is asked about at the next start, and the customer told', async () => {
  const first = await start();
  first.session.token = 'token-1';
  first.session.user = customerInfo({ id: 7 });
  await first.storage.flushStores();
  // The request leaves; its answer never comes to this page.
  let sent!: () => void;
  const leaving = new Promise<void>((resolve) => (sent = resolve));
  const calls = serve(first, () => {
    sent();
    return new Promise<Response>(() => undefined);
  });
  void first.api.api(submitWithdraw, withdrawal).catch(() => undefined);
  await leaving;
  const key = calls[0]!.request.headers.get('idempotency-key');

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
