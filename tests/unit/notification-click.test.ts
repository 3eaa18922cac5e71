// What the service worker does with a push notification (src/lib/notification-click.ts): what a push
// message shows, and where a tap goes. Headless Chromium cannot click a notification (no DevTools
// call does, and a page cannot fire a worker's notificationclick), so the routing is tested here
// over stand-ins of the worker's Clients; tests/e2e/push.test.ts shows the real notification.
import { describe, expect, it } from 'vitest';
import { notificationTarget, openNotificationTarget, readPushNotice } from '../../src/lib/notification-click.ts';

const SCOPE = 'https://coinvest.example/';

class FakeWindow {
  log: string[];
  url: string;
  focused: boolean;
  private controlled: boolean;
  constructor(url: string, focused: boolean, log: string[], controlled = true) {
    this.url = url;
    this.focused = focused;
    this.log = log;
    this.controlled = controlled;
  }
  async focus() {
    this.log.push(`focus ${this.url}`);
    return this;
  }
  async navigate(url: string) {
    if (!this.controlled) throw new TypeError('not controlled by this worker');
    this.log.push(`navigate ${this.url} -> ${url}`);
    this.url = url;
    return this;
  }
}

function fakeClients(windows: { url: string; focused?: boolean; controlled?: boolean }[]) {
  const log: string[] = [];
  const open = windows.map(
    ({ url, focused = false, controlled = true }) => new FakeWindow(url, focused, log, controlled),
  );
  return {
    log,
    clients: {
      matchAll: async (options: { type: 'window'; includeUncontrolled: boolean }) => {
        log.push(`matchAll ${options.type} uncontrolled=${options.includeUncontrolled}`);
        return open;
      },
      openWindow: async (url: string) => void log.push(`open ${url}`),
    },
  };
}

describe('a push message', () => {
  it('shows its title, text, tag and route', () => {
    const data = JSON.stringify({
      title: 'BTC option settled',
      body: 'You won: +8 USDT',
      url: '#/pages/Option/orderRecord/orderRecord?id=12',
      tag: 'option:12',
    });
    expect(readPushNotice(data)).toEqual({
      title: 'BTC option settled',
      body: 'You won: +8 USDT',
      url: '#/pages/Option/orderRecord/orderRecord?id=12',
      tag: 'option:12',
    });
  });

  it('that cannot be read still shows, with the app name; a route outside the app is dropped', () => {
    expect(readPushNotice('not json')).toEqual({ title: 'Coinvest', body: '', url: '', tag: '' });
    expect(readPushNotice(null)).toEqual({ title: 'Coinvest', body: '', url: '', tag: '' });
    for (const url of [
      'https://evil.example/#/pages/index/index',
      '//evil.example/',
      'javascript:alert(1)',
      '#/pages/../../x',
      '#/other',
    ]) {
      expect(readPushNotice(JSON.stringify({ title: 'x', url })).url).toBe('');
    }
  });
});

describe('a tap on a notification', () => {
  it('opens the order or message page at the app scope, and only app routes', () => {
    expect(notificationTarget({ url: '#/pages/Recharge/orderDetails?id=7' }, SCOPE)).toBe(
      `${SCOPE}#/pages/Recharge/orderDetails?id=7`,
    );
    expect(notificationTarget({ url: 'https://evil.example/' }, SCOPE)).toBe(SCOPE);
    expect(notificationTarget(null, SCOPE)).toBe(SCOPE);
  });

  it('brings the focused app window forward and shows the page in it', async () => {
    const { clients, log } = fakeClients([
      { url: `${SCOPE}#/pages/index/index` },
      { url: `${SCOPE}#/pages/mine/mine`, focused: true },
      { url: 'https://other.example/' },
    ]);
    await openNotificationTarget(clients, `${SCOPE}#/pages/index/msgList?id=3`, SCOPE);
    expect(log).toEqual([
      'matchAll window uncontrolled=true',
      `focus ${SCOPE}#/pages/mine/mine`,
      `navigate ${SCOPE}#/pages/mine/mine -> ${SCOPE}#/pages/index/msgList?id=3`,
    ]);
  });

  it('takes the first app window when none is focused, never another site', async () => {
    const { clients, log } = fakeClients([
      { url: 'https://other.example/', focused: true },
      { url: `${SCOPE}#/pages/index/index` },
    ]);
    await openNotificationTarget(clients, `${SCOPE}#/pages/Option/orderRecord/orderRecord?id=1`, SCOPE);
    expect(log.slice(1)).toEqual([
      `focus ${SCOPE}#/pages/index/index`,
      `navigate ${SCOPE}#/pages/index/index -> ${SCOPE}#/pages/Option/orderRecord/orderRecord?id=1`,
    ]);
  });

  it('opens a window when the app is not open, or when its window cannot be navigated', async () => {
    const none = fakeClients([]);
    await openNotificationTarget(none.clients, `${SCOPE}#/pages/mine/mine`, SCOPE);
    expect(none.log.slice(1)).toEqual([`open ${SCOPE}#/pages/mine/mine`]);

    const uncontrolled = fakeClients([{ url: `${SCOPE}#/pages/index/index`, controlled: false }]);
    await openNotificationTarget(uncontrolled.clients, `${SCOPE}#/pages/mine/mine`, SCOPE);
    expect(uncontrolled.log.slice(1)).toEqual([`focus ${SCOPE}#/pages/index/index`, `open ${SCOPE}#/pages/mine/mine`]);
  });
});
