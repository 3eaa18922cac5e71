// @vitest-environment jsdom
// The startup version check and the update dialog: a newer `v` in appurl_android than the app's
// version (101) opens the forced update dialog; the Android shell is told by its user agent. A browser that refuses the
// service worker leaves the app running online, the refusal noted in the console, never an uncaught error.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { APP_VERSION } from '../../src/api-contract/constants.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { toasts } from '../../src/lib/toast.ts';
import {
  INSECURE_NOTICE_KEY,
  announcedVersion,
  applyVersionCheck,
  noteInsecureContext,
  registerServiceWorker,
} from '../../src/lib/update.ts';
import { isAndroidShell } from '../../src/lib/update-install.ts';
import { appUpdate } from '../../src/lib/update-state.ts';

/** What the browser answers a registration: Chrome with site data blocked refuses it with a SecurityError. */
const register = vi.hoisted(() => ({ answer: () => Promise.resolve() }));
vi.mock('workbox-window', () => ({
  Workbox: class {
    addEventListener() {}
    register = () => register.answer();
  },
}));

beforeEach(() => {
  Object.assign(appUpdate, { waiting: false, dismissed: false, forced: false, link: null });
});

describe('announcedVersion', () => {
  it('reads the v parameter of relative and absolute links', () => {
    expect(announcedVersion('/downloads/coinvest.apk?v=101')).toBe(101);
    expect(announcedVersion('https://dl.example/app.apk?x=1&v=205')).toBe(205);
  });

  it('is null without a usable v', () => {
    for (const link of [
      undefined,
      '',
      '/app.apk',
      '/app.apk?v=',
      '/app.apk?v=1.2',
      '/app.apk?v=abc',
      '/app.apk?v=-3',
    ]) {
      expect(announcedVersion(link)).toBeNull();
    }
  });
});

describe('applyVersionCheck', () => {
  it(`leaves the app alone when v is not newer than ${APP_VERSION}`, async () => {
    expect(await applyVersionCheck(`/downloads/coinvest.apk?v=${APP_VERSION}`)).toBe(false);
    expect(await applyVersionCheck('/downloads/coinvest.apk?v=100')).toBe(false);
    expect(await applyVersionCheck('/downloads/coinvest.apk')).toBe(false);
    expect(appUpdate.forced).toBe(false);
  });

  it('opens the forced dialog with the absolute download link when v is newer', async () => {
    expect(await applyVersionCheck(`/downloads/coinvest.apk?v=${APP_VERSION + 1}`)).toBe(true);
    expect(appUpdate.forced).toBe(true);
    expect(appUpdate.link).toBe(new URL(`/downloads/coinvest.apk?v=${APP_VERSION + 1}`, location.href).href);
  });
});

it('knows the Android shell by its user agent', () => {
  expect(isAndroidShell('Mozilla/5.0 (Linux; Android 14) CoinvestAndroid/101')).toBe(true);
  expect(isAndroidShell('Mozilla/5.0 (Linux; Android 14) Chrome/140 Mobile')).toBe(false);
});

describe('noteInsecureContext (a plain-http LAN host has no service worker)', () => {
  it('says once per device, as a toast, that offline use needs https', () => {
    const stored = new Map<string, string>();
    const storage = {
      getItem: (key: string) => stored.get(key) ?? null,
      setItem: (key: string, value: string) => void stored.set(key, value),
    } as Storage;
    noteInsecureContext(storage);
    expect(toasts.current?.text).toBe(texts.secureContextNeeded.message);
    toasts.current = null;
    noteInsecureContext(storage);
    expect(toasts.current).toBeNull();
    expect(stored.has(INSECURE_NOTICE_KEY)).toBe(true);
  });
});

describe('registerServiceWorker where the browser refuses service workers', () => {
  const refused = new DOMException('Failed to register a ServiceWorker: The user denied permission.', 'SecurityError');
  beforeEach(() => {
    vi.stubEnv('PROD', true);
    Object.defineProperty(window, 'isSecureContext', { configurable: true, value: true });
    register.answer = () => Promise.reject(refused);
  });
  afterEach(() => {
    vi.unstubAllEnvs();
    vi.restoreAllMocks();
    Reflect.deleteProperty(navigator, 'serviceWorker');
  });

  it('goes on without offline use and notes the refusal in the console', async () => {
    const ready = new Promise<never>(() => undefined);
    Object.defineProperty(navigator, 'serviceWorker', { configurable: true, value: { ready } });
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    await expect(registerServiceWorker()).resolves.toBeUndefined();
    expect(info).toHaveBeenCalledWith(expect.stringContaining('service worker'), refused);
    expect(toasts.current).toBeNull();
  });

  it('goes on where reading navigator.serviceWorker itself throws (Firefox with cookies blocked)', async () => {
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      get: () => {
        throw new DOMException('The operation is insecure.', 'SecurityError');
      },
    });
    const info = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    await expect(registerServiceWorker()).resolves.toBeUndefined();
    expect(info).toHaveBeenCalledOnce();
  });
});
