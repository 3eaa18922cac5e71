// @vitest-environment jsdom
// The diagnostics report a tester copies into a bug report — every section, the ages of
// cached answers, the stored records by name and size, and never a token but masked.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStore, set } from 'idb-keyval';
import {
  ageSeconds,
  cacheKeyPath,
  cacheKind,
  describeRecord,
  diagnosticsReport,
  maskToken,
  type DiagnosticsFacts,
} from '../../src/features/diagnostics/diagnostics-report.ts';
import { currentReport, diagnostics, readDiagnostics } from '../../src/features/diagnostics/diagnostics-store.ts';
import { APP_VERSION } from '../../src/api-contract/constants.ts';
import { PUBLIC_CACHE, isPartition } from '../../src/api-contract/offline-cache.ts';
import { callLog } from '../../src/lib/call-log.ts';
import { offlineData } from '../../src/lib/offline.ts';
import { outbox } from '../../src/lib/outbox.ts';
import { resetClientState } from './helpers.ts';

const TOKEN = 'f3a9c1d27be84e0b9d6a5c4f3e2d1c0b';
const now = new Date('2026-11-23T10:00:00.000Z');

const facts = (): DiagnosticsFacts => ({
  serviceWorker: {
    supported: true,
    scope: 'https://app.test/',
    installing: null,
    waiting: 'installed',
    active: 'activated',
    controlling: true,
  },
  caches: {
    supported: true,
    precache: { name: 'workbox-precache-v2-https://app.test/', entries: 84 },
    runtime: [
      {
        name: PUBLIC_CACHE,
        kind: 'public',
        mine: false,
        entries: [{ key: '/api/coin/lists', storedAt: '2026-11-23T09:55:00.000Z' }],
      },
      {
        name: 'user-0123456789abcdef',
        kind: 'user',
        mine: true,
        entries: [
          { key: '/__offline__/POST/api/users/message?page=1', storedAt: '2026-11-23T09:59:30.000Z' },
          { key: '/__offline__/GET/api/users/message/unread', storedAt: null },
        ],
      },
    ],
  },
  storage: { usage: 1_234_567, quota: 300_000_000, persisted: false },
  deviceRecords: [
    describeRecord('session', { token: TOKEN, user: { username: 'demo' } }),
    describeRecord('prices', { quotes: {}, codes: [] }),
  ],
  network: { online: false, navigatorOnLine: true, priceStream: 'reconnecting' },
  outbox: [{ kind: 'messages-read', messages: 2, queuedAt: '2026-11-23T09:58:00.000Z' }],
  calls: [
    {
      at: '2026-11-23T09:59:59.000Z',
      method: 'GET',
      path: '/coin/lists',
      status: 200,
      ret: 1,
      attempts: 2,
      durationMs: 412,
      storedAt: null,
    },
  ],
  failedCalls: [],
});

describe('the report builder', () => {
  it('masks a token to its first four characters', () => {
    expect(maskToken(TOKEN)).toBe('f3a9…');
    expect(maskToken('abc')).toBe('…');
    expect(describeRecord('session', { token: TOKEN, user: null })).toEqual({
      key: 'session',
      size: JSON.stringify({ token: TOKEN, user: null }).length,
      token: 'f3a9…',
    });
    expect(describeRecord('history', { entries: ['/pages/index/index'] })).toEqual({
      key: 'history',
      size: '{"entries":["/pages/index/index"]}'.length,
    });
  });

  it('holds every section, with the ages of cached answers, and no token', () => {
    const app = {
      version: APP_VERSION,
      packageVersion: '1.0.1',
      build: '202611230930',
      userAgent: 'test',
      locale: 'en',
    };
    const report = diagnosticsReport(app, facts(), now);
    const json = JSON.stringify(report);
    expect(json).not.toContain(TOKEN);
    expect(json).not.toContain(TOKEN.slice(0, 8));
    const parsed = JSON.parse(json) as typeof report;
    expect(Object.keys(parsed)).toEqual([
      'generatedAt',
      'app',
      'serviceWorker',
      'caches',
      'storage',
      'deviceRecords',
      'network',
      'outbox',
      'calls',
      'failedCalls',
    ]);
    expect(parsed.generatedAt).toBe('2026-11-23T10:00:00.000Z');
    expect(parsed.app.version).toBe(APP_VERSION);
    expect(parsed.serviceWorker).toMatchObject({ waiting: 'installed', active: 'activated', controlling: true });
    expect(parsed.caches.precache!.entries).toBe(84);
    expect(parsed.caches.runtime.map((cache) => cache.entries.map((entry) => [entry.key, entry.ageSeconds]))).toEqual([
      [['/api/coin/lists', 300]],
      [
        ['/__offline__/POST/api/users/message?page=1', 30],
        ['/__offline__/GET/api/users/message/unread', null],
      ],
    ]);
    expect(parsed.deviceRecords.find((record) => record.key === 'session')!.token).toBe('f3a9…');
    expect(parsed.outbox).toEqual([{ kind: 'messages-read', messages: 2, queuedAt: '2026-11-23T09:58:00.000Z' }]);
    expect(parsed.network).toEqual({ online: false, navigatorOnLine: true, priceStream: 'reconnecting' });
    expect(parsed.calls[0]).toEqual({
      at: '2026-11-23T09:59:59.000Z',
      method: 'GET',
      path: '/coin/lists',
      status: 200,
      ret: 1,
      attempts: 2,
      durationMs: 412,
      storedAt: null,
    });
  });

  it('names caches and keys as the service worker made them', () => {
    expect(cacheKind(PUBLIC_CACHE, PUBLIC_CACHE, isPartition)).toBe('public');
    expect(cacheKind('user-0123456789abcdef', PUBLIC_CACHE, isPartition)).toBe('user');
    expect(cacheKind('something-else', PUBLIC_CACHE, isPartition)).toBe('other');
    expect(cacheKeyPath('https://app.test/__offline__/POST/api/users/message?page=1')).toBe(
      '/__offline__/POST/api/users/message?page=1',
    );
    expect(ageSeconds('not a time', now)).toBeNull();
    expect(ageSeconds('2026-11-23T10:00:05.000Z', now)).toBe(0);
  });
});

describe('the report of this device', () => {
  beforeEach(() => {
    resetClientState();
    callLog.calls = [];
  });
  afterEach(() => {
    resetClientState();
    outbox.pending = [];
  });

  it('reads the IndexedDB records by name and size, the session token masked', async () => {
    await set('session', { token: TOKEN, user: { username: 'demo' } }, createStore('coinvest', 'state'));
    offlineData.online = false;
    outbox.pending = [
      {
        key: 'c0ffee00-0000-4000-8000-000000000001',
        kind: 'messages-read',
        ids: [3, 4, 5],
        queuedAt: '2026-11-23T09:50:00.000Z',
      },
    ];
    await readDiagnostics();
    expect(diagnostics.deviceRecords).toContainEqual({
      key: 'session',
      size: expect.any(Number) as number,
      token: 'f3a9…',
    });
    const json = JSON.stringify(currentReport(now));
    expect(json).not.toContain(TOKEN);
    const report = JSON.parse(json) as ReturnType<typeof currentReport>;
    expect(report.network.online).toBe(false);
    // What waits in the outbox: how many messages and since when, not its Idempotency-Key.
    expect(report.outbox).toEqual([{ kind: 'messages-read', messages: 3, queuedAt: '2026-11-23T09:50:00.000Z' }]);
    expect(json).not.toContain('c0ffee00');
    // jsdom has neither Cache Storage nor a service worker: the report says so rather than inventing.
    expect(report.caches).toEqual({ supported: false, precache: null, runtime: [] });
    expect(report.serviceWorker.supported).toBe(false);
    expect(report.app.version).toBe(APP_VERSION);
  });
});
