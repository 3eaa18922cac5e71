// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { ROUTES } from '../../src/api-contract/routes.ts';
import {
  FIRST_SCREENS,
  FIRST_SCREEN_HINT_KEY,
  pickFirstScreen,
  readFirstScreenHint,
} from '../../src/lib/first-screen-pick.ts';
import { keepFirstScreenHint } from '../../src/lib/first-screen-hint.ts';
import { localeChoice, pickLocale } from '../../src/lib/i18n.ts';
import {
  LOCALE_COOKIE,
  cookieLocale,
  firstScreenId,
  localeCookie,
  startFailedId,
  templateLocale,
} from '../../src/api-contract/first-data.ts';
import { session } from '../../src/lib/session.ts';
import { themeChoice } from '../../src/lib/theme.ts';
import { choosePriceColors } from '../../src/lib/price-colors.ts';

const screen = (path: string, signedIn: boolean) =>
  FIRST_SCREENS.findIndex((item) => item.path === path && item.signedIn === signedIn);
const signedIn = { locale: null, signedIn: true };
const signedOut = { locale: null, signedIn: false };

describe('the first screen the HTML shows (pickFirstScreen)', () => {
  it('shows the tab page of the hash on a signed-in device, Home for an empty hash', () => {
    expect(pickFirstScreen(`#${ROUTES.coinList}`, signedIn, ['en-GB'], true)).toEqual({
      locale: 'en',
      index: screen(ROUTES.coinList, true),
    });
    expect(pickFirstScreen('', signedIn, ['en'], true)?.index).toBe(screen(ROUTES.home, true));
    expect(pickFirstScreen('#/', signedIn, ['en'], true)?.index).toBe(screen(ROUTES.home, true));
    // The query is no part of the page.
    expect(pickFirstScreen(`#${ROUTES.mine}?tab=1`, signedIn, ['en'], true)?.index).toBe(screen(ROUTES.mine, true));
  });

  it('shows the login page where a signed-out device would be sent to it, and the public pages as a guest sees them', () => {
    const login = screen(ROUTES.login, false);
    expect(pickFirstScreen(`#${ROUTES.home}`, signedOut, ['en'], true)?.index).toBe(login);
    expect(pickFirstScreen(`#${ROUTES.option}`, signedOut, ['en'], true)?.index).toBe(login);
    expect(pickFirstScreen(`#${ROUTES.settings}`, signedOut, ['en'], true)?.index).toBe(login);
    expect(pickFirstScreen(`#${ROUTES.lockUp}`, signedOut, ['en'], true)?.index).toBe(screen(ROUTES.lockUp, false));
    expect(pickFirstScreen(`#${ROUTES.mine}`, signedOut, ['en'], true)?.index).toBe(screen(ROUTES.mine, false));
    // Signed in on the login page: the login page, as the app shows it.
    expect(pickFirstScreen(`#${ROUTES.login}`, signedIn, ['en'], true)?.index).toBe(login);
  });

  it('shows no screen for a page it does not hold, nor for an unknown route (not found, not the login page)', () => {
    expect(pickFirstScreen(`#${ROUTES.settings}`, signedIn, ['en'], true)).toBeNull();
    expect(pickFirstScreen('#/pages/nowhere', signedOut, ['en'], true)).toBeNull();
  });

  it('takes a device with no hint and no service worker for a first visit; with a service worker, for one it cannot tell', () => {
    expect(pickFirstScreen(`#${ROUTES.home}`, null, ['en'], false)?.index).toBe(screen(ROUTES.login, false));
    expect(pickFirstScreen(`#${ROUTES.home}`, null, ['en'], true)).toBeNull();
  });

  it('speaks the stored choice, else the browser’s language, else Thai', () => {
    expect(pickFirstScreen('', { locale: 'ar', signedIn: true }, ['en'], true)?.locale).toBe('ar');
    expect(pickFirstScreen('', signedIn, ['ja-JP', 'en'], true)?.locale).toBe('jp');
    expect(pickFirstScreen('', signedIn, ['de-DE'], true)?.locale).toBe('th');
  });
});

describe('the hint the app keeps for it (keepFirstScreenHint, readFirstScreenHint)', () => {
  it('writes the language, theme and price colour choices and whether a session is kept, now and on every change of any', async () => {
    const written = new Map<string, string>();
    const storage = { setItem: (key: string, value: string) => void written.set(key, value) };
    const read = () => readFirstScreenHint({ getItem: (key) => written.get(key) ?? null });
    const cookies: string[] = [];
    session.token = null;
    localeChoice.locale = null;
    keepFirstScreenHint(storage, (cookie) => cookies.push(cookie));
    expect(read()).toEqual({ locale: null, signedIn: false, theme: 'system' });
    // No choice stored: the cookie names the language the app starts in, the browser's.
    const browsers = pickLocale(null, navigator.languages);
    expect(cookies).toEqual([`${LOCALE_COOKIE}=${browsers}; Path=/; Max-Age=31536000; SameSite=Lax`]);
    session.token = 'a-token';
    await expect.poll(read).toEqual({ locale: null, signedIn: true, theme: 'system' });
    localeChoice.locale = 'zh';
    await expect.poll(read).toEqual({ locale: 'zh', signedIn: true, theme: 'system' });
    expect(cookies.at(-1)).toBe(`${LOCALE_COOKIE}=zh; Path=/; Max-Age=31536000; SameSite=Lax`);
    themeChoice.theme = 'dark';
    await expect.poll(read).toEqual({ locale: 'zh', signedIn: true, theme: 'dark' });
    session.token = null;
    await expect.poll(read).toEqual({ locale: 'zh', signedIn: false, theme: 'dark' });
    // The price colours once chosen (until then the language's convention holds, and the hint says nothing).
    choosePriceColors('green-up');
    await expect.poll(read).toEqual({ locale: 'zh', signedIn: false, theme: 'dark', priceColors: 'green-up' });
    expect([...written.keys()]).toEqual([FIRST_SCREEN_HINT_KEY]);
  });

  it('the server reads the language back from the cookie, and nothing from any other value', () => {
    expect(cookieLocale(`a=1; ${LOCALE_COOKIE}=ar; b=2`)).toBe('ar');
    expect(cookieLocale(`${LOCALE_COOKIE}=jp`)).toBe('jp');
    for (const header of [
      undefined,
      '',
      'a=1',
      `${LOCALE_COOKIE}=`,
      `${LOCALE_COOKIE}=xx`,
      `${LOCALE_COOKIE}=en%00`,
      `x${LOCALE_COOKIE}=en`,
    ])
      expect(cookieLocale(header), String(header)).toBeNull();
    expect(localeCookie('th', true)).toBe(`${LOCALE_COOKIE}=th; Path=/; Max-Age=31536000; SameSite=Lax; Secure`);
  });

  it('tells the language of each template of the first screens from its id', () => {
    expect(templateLocale(firstScreenId('zh', 3))).toBe('zh');
    expect(templateLocale(startFailedId('ar'))).toBe('ar');
    for (const id of ['first-screen-zh-', 'first-screen-zh-x', 'first-screen-xx-1', 'start-failed-', 'root', ''])
      expect(templateLocale(id), id).toBeNull();
  });

  it('reads anything unreadable as no hint', () => {
    expect(readFirstScreenHint({ getItem: () => null })).toBeNull();
    expect(readFirstScreenHint({ getItem: () => '{not json' })).toBeNull();
    expect(readFirstScreenHint({ getItem: () => '7' })).toBeNull();
  });
});
