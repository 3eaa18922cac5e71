// @vitest-environment jsdom
// Price alerts in the app: the form's fields and checks (the API contract's texts), making an alert online and offline
// (kept in the outbox with the key of its first try, sent once when the connection returns, shown as waiting to send
// until then), a refusal kept with its reason, deleting online and offline, and the list's order and count.
import { afterEach, beforeEach, expect, it } from 'vitest';
import { i18n } from '@lingui/core';
import type { PriceAlert } from '../../src/api-contract/price-alerts.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { offlineData } from '../../src/lib/offline.ts';
import { flushOutbox, outbox } from '../../src/lib/outbox.ts';
import { clearSession, session } from '../../src/lib/session.ts';
import {
  alertInput,
  alertList,
  alertProblem,
  alertRows,
  alertsHeld,
  createAlert,
  deleteAlert,
} from '../../src/features/price-alerts/price-alerts-store.ts';
import { envelope, resetClientState, stubFetch } from './helpers.ts';
import { outboxSentAnswerHeld } from './outbox-helpers.ts';

const settle = () => new Promise((resolve) => setTimeout(resolve, 0));
const alert = (id: number, fields: Partial<PriceAlert> = {}): PriceAlert => ({
  id,
  code: 'BTC',
  kind: 'above',
  price: '70000.00000000',
  percent: null,
  created_at: '2026-11-27T08:00:00.000Z',
  fired_at: null,
  fired_price: null,
  fired_tick_at: null,
  fired_from_price: null,
  ...fields,
});
const fired = (id: number) =>
  alert(id, {
    fired_at: '2026-11-27T08:05:00.000Z',
    fired_price: '70010.50000000',
    fired_tick_at: '2026-11-27T08:04:59.000Z',
  });
const list = (lists: PriceAlert[]) => envelope(1, 'ok', { lists, max: 50 });
const fields = (body: string) => Object.fromEntries(new URLSearchParams(body));

beforeEach(async () => {
  resetClientState();
  await settle();
  session.token = 'token-alerts';
  await settle();
  outbox.pending = [];
  outbox.refusedAlerts = [];
  Object.assign(alertList, { lists: [alert(2), fired(1)], max: 50, loaded: true });
});
afterEach(resetClientState);

it('sends the price of above / below and the percent of a move, as the API contract writes them', () => {
  expect(alertInput({ code: 'BTC', kind: 'above', value: '070000.50' })).toEqual({
    code: 'BTC',
    kind: 'above',
    price: '70000.5',
    percent: '',
  });
  expect(alertInput({ code: 'ETH', kind: 'move', value: '5.' })).toEqual({
    code: 'ETH',
    kind: 'move',
    price: '',
    percent: '5',
  });
});

it('checks the form with the API contract’s texts, and the most alerts one may hold', () => {
  expect(alertProblem({ code: '', kind: 'above', value: '1' }, 0, 50)).toBe(i18n._(texts.chooseCoin));
  expect(alertProblem({ code: 'BTC', kind: 'below', value: '1.123456789' }, 0, 50)).toBe(i18n._(texts.priceFormat));
  expect(alertProblem({ code: 'BTC', kind: 'above', value: '' }, 0, 50)).toBe(i18n._(texts.enterAlertPrice));
  expect(alertProblem({ code: 'BTC', kind: 'above', value: '0.00' }, 0, 50)).toBe(i18n._(texts.enterAlertPrice));
  expect(alertProblem({ code: 'BTC', kind: 'move', value: '' }, 0, 50)).toBe(i18n._(texts.enterAlertPercent));
  expect(alertProblem({ code: 'BTC', kind: 'move', value: '0.05' }, 0, 50)).toBe(i18n._(texts.enterAlertPercent));
  expect(alertProblem({ code: 'BTC', kind: 'move', value: '100.5' }, 0, 50)).toBe(i18n._(texts.enterAlertPercent));
  expect(alertProblem({ code: 'BTC', kind: 'above', value: '70000' }, 0, 50)).toBeNull();
  expect(alertProblem({ code: 'BTC', kind: 'move', value: '5' }, 49, 50)).toBeNull();
  expect(alertProblem({ code: 'BTC', kind: 'move', value: '5' }, 50, 50)).toBe(i18n._(texts.priceAlertsFull));
});

it('refuses an alert the coin’s last price here already meets, saying that price', () => {
  expect(alertProblem({ code: 'BTC', kind: 'below', value: '200000' }, 0, 50, '97055.35')).toBe(
    'BTC is already at or below 200,000: its last recorded price is 97,055.35. Choose a lower price!',
  );
  expect(alertProblem({ code: 'BTC', kind: 'above', value: '90000' }, 0, 50, '97055.35')).toBe(
    'BTC is already at or above 90,000: its last recorded price is 97,055.35. Choose a higher price!',
  );
  expect(alertProblem({ code: 'BTC', kind: 'above', value: '100000' }, 0, 50, '97055.35')).toBeNull();
  expect(alertProblem({ code: 'BTC', kind: 'move', value: '5' }, 0, 50, '97055.35')).toBeNull();
  // No price known here (offline before any was read): the server weighs it when it is sent.
  expect(alertProblem({ code: 'BTC', kind: 'below', value: '200000' }, 0, 50, null)).toBeNull();
});

it('online, an alert is made at once and shown first; the list is read again for the copy kept offline', async () => {
  const made = alert(3, { kind: 'below', price: '60000.00000000' });
  const fetch = stubFetch(envelope(1, 'ok', made), list([made, alert(2), fired(1)]));
  expect(await createAlert({ code: 'BTC', kind: 'below', value: '60000' })).toBe('sent');
  expect(fields(fetch.calls[0]!.body)).toEqual({ code: 'BTC', kind: 'below', price: '60000', percent: '' });
  expect(alertList.lists.map((shown) => shown.id)).toEqual([3, 2, 1]);
  await settle();
  expect(fetch.calls[1]!.request.url).toContain('/users/price-alerts');
  expect(outbox.pending).toEqual([]);
});

it('offline, an alert waits in the outbox as "unsent", then is sent once with its key and takes its place', async () => {
  const fetch = stubFetch(list([]));
  offlineData.online = false;
  expect(await createAlert({ code: 'ETH', kind: 'move', value: '5' })).toBe('queued');
  expect(fetch.calls).toHaveLength(0);
  expect(outbox.pending).toMatchObject([{ kind: 'price-alert', code: 'ETH', alert: 'move', price: '', percent: '5' }]);
  const { waiting } = alertRows(alertList.lists, outbox.pending);
  expect(waiting.map((row) => row.state)).toEqual(['unsent', 'waiting']);
  expect(alertsHeld()).toBe(2);

  const key = outbox.pending[0]!.key;
  const made = alert(4, { code: 'ETH', kind: 'move', price: null, percent: '5.00' });
  const sent = stubFetch(envelope(1, 'ok', made), list([made, alert(2), fired(1)]));
  offlineData.online = true;
  await flushOutbox();
  expect(sent.calls[0]!.request.url).toContain('/users/price-alerts/add');
  expect(sent.calls[0]!.request.headers.get('Idempotency-Key')).toBe(key);
  expect(fields(sent.calls[0]!.body)).toEqual({ code: 'ETH', kind: 'move', price: '', percent: '5' });
  expect(outbox.pending).toEqual([]);
  // On screen as a waiting alert the moment it leaves the outbox.
  expect(
    alertRows(alertList.lists, outbox.pending).waiting.map((row) => row.state === 'waiting' && row.alert.id),
  ).toEqual([4, 2]);
});

it('a make whose network fails on the way is kept with the key of that try (a lost answer applies once)', async () => {
  const fetch = stubFetch(new TypeError('Failed to fetch'));
  expect(await createAlert({ code: 'BTC', kind: 'above', value: '71000' })).toBe('queued');
  const tried = new Set(fetch.calls.map((call) => call.request.headers.get('Idempotency-Key')));
  expect(tried.size).toBe(1);
  expect(outbox.pending.map((entry) => entry.key)).toEqual([...tried]);
});

it('a refusal online is the page’s to show; a refusal of one sent later stays listed with its reason', async () => {
  stubFetch(envelope(0, 'Too many alerts'));
  await expect(createAlert({ code: 'BTC', kind: 'above', value: '71000' })).rejects.toThrow('Too many alerts');
  expect(outbox.pending).toEqual([]);

  offlineData.online = false;
  await createAlert({ code: 'BTC', kind: 'above', value: '71000' });
  stubFetch(envelope(0, 'Too many alerts'), list([alert(2), fired(1)]));
  offlineData.online = true;
  await flushOutbox();
  expect(outbox.pending).toEqual([]);
  expect(outbox.refusedAlerts).toMatchObject([
    { code: 'BTC', alert: 'above', price: '71000', reason: 'Too many alerts' },
  ]);
});

it('deletes online at once; offline the deletion waits (the row says so) and is sent once with its key', async () => {
  let fetch = stubFetch(envelope(1, 'ok', null), list([fired(1)]));
  expect(await deleteAlert({ id: 2 })).toBe('deleted');
  expect(fields(fetch.calls[0]!.body)).toEqual({ id: '2' });
  expect(alertList.lists.map((shown) => shown.id)).toEqual([1]);

  alertList.lists = [alert(2), fired(1)];
  offlineData.online = false;
  fetch = stubFetch(list([]));
  expect(await deleteAlert({ id: 2 })).toBe('queued');
  expect(fetch.calls).toHaveLength(0);
  const rows = alertRows(alertList.lists, outbox.pending);
  expect(rows.waiting.map((row) => row.state)).toEqual(['deleting']);
  expect(alertsHeld()).toBe(0);

  const key = outbox.pending[0]!.key;
  fetch = stubFetch(envelope(1, 'ok', null), list([fired(1)]));
  offlineData.online = true;
  await flushOutbox();
  expect(fetch.calls[0]!.request.url).toContain('/users/price-alerts/delete');
  expect(fetch.calls[0]!.request.headers.get('Idempotency-Key')).toBe(key);
  expect(outbox.pending).toEqual([]);
  expect(alertList.lists.map((shown) => shown.id)).toEqual([1]);
});

it('an alert not sent yet is dropped on the device: it leaves the list and is never sent', async () => {
  offlineData.online = false;
  await createAlert({ code: 'BTC', kind: 'above', value: '71000' });
  const key = outbox.pending[0]!.key;
  expect(await deleteAlert({ key })).toBe('deleted');
  expect(alertRows(alertList.lists, outbox.pending).waiting.map((row) => row.state)).toEqual(['waiting']);
  expect(alertsHeld()).toBe(1);
  const fetch = stubFetch(list([]));
  offlineData.online = true;
  await flushOutbox();
  expect(fetch.calls.filter((call) => call.request.url.includes('/price-alerts/add'))).toHaveLength(0);
  expect(outbox.pending).toEqual([]);
});

it('lists what waits to be sent (newest first), then the waiting alerts, then the fired ones', () => {
  const pending = [
    { key: 'a', kind: 'price-alert', code: 'BTC', alert: 'above', price: '1', percent: '', queuedAt: '' },
    { key: 'b', kind: 'price-alert', code: 'ETH', alert: 'move', price: '', percent: '2', queuedAt: '' },
    { key: 'c', kind: 'messages-read', ids: [1], queuedAt: '' },
  ] as const;
  const rows = alertRows([alert(5), fired(4), alert(3)], pending);
  expect(rows.waiting.map((row) => (row.state === 'unsent' ? row.key : row.alert.id))).toEqual(['b', 'a', 5, 3]);
  expect(rows.fired.map((row) => row.state === 'fired' && row.alert.id)).toEqual([4]);
  expect(alertsHeld([alert(5), fired(4), alert(3)], pending)).toBe(4);
});

it('what waits is sent as soon as a call finds the network again (a reload offline may bring no `online` event)', async () => {
  const { startOutbox } = await import('../../src/lib/outbox.ts');
  startOutbox();
  offlineData.online = false;
  await createAlert({ code: 'BTC', kind: 'above', value: '71000' });
  const made = alert(6, { price: '71000.00000000' });
  const fetch = stubFetch(envelope(1, 'ok', made), list([made, alert(2), fired(1)]));
  offlineData.online = true;
  await expect.poll(() => outbox.pending.length).toBe(0);
  expect(fetch.calls[0]!.request.url).toContain('/users/price-alerts/add');
});

it('an alert whose answer comes after its customer signed out and another signed in is not listed for the other', async () => {
  offlineData.online = false;
  await createAlert({ code: 'ETH', kind: 'move', value: '5' });
  const { sending, answer } = await outboxSentAnswerHeld();
  await clearSession();
  session.token = 'token-other';
  await settle();
  // The other customer opens their alerts: none.
  Object.assign(alertList, { lists: [], max: 50, loaded: true });
  answer(envelope(1, 'ok', alert(4, { code: 'ETH', kind: 'move', price: null, percent: '5.00' })));
  await sending;
  expect(alertList.lists).toEqual([]);
});
