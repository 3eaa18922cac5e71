// The main journeys with the keyboard alone, as a person without a pointer (or with a screen reader) goes through them:
// register, log in, buy an option, withdraw. Only page.keyboard moves: Tab, Shift+Tab, Enter, Space, typing, Escape,
// and the arrow keys and Home within a radio group.
// At each stop the test checks what that person meets: the focused control's role and accessible name (Chromium's
// own accessibility tree), a visible focus ring on it, the new page's heading taking the focus after a navigation,
// and a dialog that takes the focus, keeps Tab inside, closes on Escape and gives the focus back.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import {
  codeSentTo,
  launch,
  phoneContext,
  recordToasts,
  screenshot,
  toastSeen,
  watchPagesOnFailure,
} from './browser.ts';
import { addBankCard, creditUsdt } from './funded-user.ts';
import { callApi, markAllRead } from './pwa.ts';

const phone = `086${String(Date.now()).slice(-7)}`;
const password = 'keys1234';
const paypass = '135790';

let browser: Browser;
const contexts: BrowserContext[] = [];
const watch = watchPagesOnFailure('keyboard-');
/** The page the journeys share once logged in. */
let page: Page;
const seconds: string[] = [];

beforeAll(async () => {
  browser = await launch();
});
afterAll(async () => {
  for (const context of contexts) await context.close();
  await browser?.close();
  console.log(`keyboard journeys: ${seconds.join('; ')}`);
});

async function openPage(options: Parameters<typeof phoneContext>[1] = {}): Promise<Page> {
  const context = await phoneContext(browser, options);
  contexts.push(context);
  const page = await context.newPage();
  // A toast stays 1.5 s: recorded as it shows, so a busy machine's late look still finds it.
  await recordToasts(page);
  return watch(page);
}

/** Runs a journey and notes how long it took (for the report, not as a check). */
async function timed(name: string, journey: () => Promise<void>): Promise<void> {
  const started = performance.now();
  await journey();
  seconds.push(`${name} ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

interface Focus {
  /** The focused element's role and accessible name as Chromium's accessibility tree has them: `button "Log in"`. */
  said: string;
  /** A ring of at least 2px is drawn around it, or around the field box an input sits in. */
  ring: boolean;
  /** Inside an open modal dialog. */
  inDialog: boolean;
  /** The document's body: nothing has the focus. */
  nothing: boolean;
  /**
   * The page's heading has it: Tab never lands there (it is focusable by script only), so the app moved the focus there
   * because the control that had it went away (a pending order's card that settled and left its list).
   */
  heading: boolean;
}

async function focus(on: Page): Promise<Focus> {
  const state = await on.evaluate(() => {
    const active = document.activeElement;
    if (!active || active === document.body) return { ring: false, inDialog: false, nothing: true, heading: false };
    const drawn = (element: Element | null) => {
      if (!element) return false;
      const style = getComputedStyle(element);
      return style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
    };
    return {
      ring: drawn(active) || drawn(active.closest('.field-box')),
      inDialog: !!active.closest('[aria-modal="true"]'),
      nothing: false,
      heading: active.matches('h1[tabindex="-1"]'),
    };
  });
  const said = state.nothing ? '' : ((await on.locator(':focus').ariaSnapshot()).split('\n')[0] ?? '');
  // "- button "Log in"" or "- heading "Withdraw" [level=1]:" → `button "Log in"`, `heading "Withdraw"`.
  return { ...state, said: said.replace(/^- /, '').replace(/ \[.*$|:$/g, '') };
}

/**
 * Presses Tab (Shift+Tab when `back`) until the focus is on `wanted` (role and name, as `focus` says them), at most
 * `max` times; every control passed on the way shows its focus ring.
 */
async function tabTo(on: Page, wanted: string | RegExp, { back = false, max = 60 } = {}): Promise<string> {
  const passed: string[] = [];
  for (let presses = 0; presses < max; presses++) {
    await on.keyboard.press(back ? 'Shift+Tab' : 'Tab');
    const now = await focus(on);
    if (now.nothing) continue;
    const reached = typeof wanted === 'string' ? now.said === wanted : wanted.test(now.said);
    // The heading shows no ring by design (it is no control); the next Tab goes on from it.
    if (now.heading && !reached) {
      passed.push(`${now.said} (the focused control went away)`);
      continue;
    }
    passed.push(now.said);
    expect(now.ring, `a focus ring on ${now.said}`).toBe(true);
    if (reached) return now.said;
  }
  throw new Error(`Tab did not reach ${wanted} in ${max} presses; it met: ${passed.join(' → ')}`);
}

/** After a navigation, the focus is on the new page's heading (once the page has drawn it). */
async function headingFocused(on: Page, title: string): Promise<void> {
  await on.waitForFunction(
    (name) => document.activeElement?.tagName === 'H1' && document.activeElement.textContent === name,
    title,
    { timeout: 15_000 },
  );
  expect((await focus(on)).said).toBe(`heading "${title}"`);
}

/** The open dialog has the focus; Tab and Shift+Tab go round its controls and never leave it. */
async function focusKeptIn(on: Page, dialog: string, controls: string[]): Promise<void> {
  await on
    .getByRole('alertdialog', { name: dialog })
    .or(on.getByRole('dialog', { name: dialog }))
    .waitFor();
  await on.waitForFunction(() => !!document.activeElement?.closest('[aria-modal="true"]'));
  expect(await focus(on)).toMatchObject({ said: controls[0], inDialog: true, ring: true });
  for (const next of [...controls.slice(1), controls[0]]) {
    await on.keyboard.press('Tab');
    expect(await focus(on)).toMatchObject({ said: next, inDialog: true, ring: true });
  }
  await on.keyboard.press('Shift+Tab');
  expect(await focus(on)).toMatchObject({ said: controls.at(-1), inDialog: true });
  await on.keyboard.press('Tab');
}

/** The focused radio as `focus` says it, with its state: `radio "BTC" checked` (or `not checked`). */
async function radioFocused(on: Page): Promise<string> {
  const { said } = await focus(on);
  const checked = await on.locator(':focus').getAttribute('aria-checked');
  return `${said} ${checked === 'true' ? 'checked' : 'not checked'}`;
}

it('registers with the keyboard alone: from the login page to Home, the code typed from the SMS', async () => {
  const signup = await openPage();
  await timed('register', async () => {
    await signup.goto('/#/pages/login/login');
    await signup.getByRole('heading', { name: 'Welcome back' }).waitFor();
    // The first page is the browser's start: the app leaves the focus where the browser puts it.
    expect((await focus(signup)).nothing).toBe(true);
    await tabTo(signup, 'link "Create an account"');
    await signup.keyboard.press('Enter');
    await signup.waitForURL(/#\/pages\/login\/regist/);
    await headingFocused(signup, 'Create an account');

    await tabTo(signup, 'textbox "Mobile number"');
    await signup.keyboard.type(phone);
    await tabTo(signup, 'button "Get code"');
    await signup.keyboard.press('Enter');
    const code = await codeSentTo(phone);
    await tabTo(signup, 'textbox "Verification code"', { back: true });
    await signup.keyboard.type(code);
    await tabTo(signup, 'textbox "Login password"');
    await signup.keyboard.type(password);
    await signup.keyboard.press('Tab');
    expect((await focus(signup)).said).toBe('textbox "Payment password"');
    await signup.keyboard.type(paypass);
    await tabTo(signup, 'checkbox "I have read and agree to the User Agreement and the Privacy Policy"');
    await signup.keyboard.press('Space');
    expect(await signup.getByRole('checkbox').isChecked()).toBe(true);
    await signup.keyboard.press('Tab');
    expect((await focus(signup)).said).toBe('button "Register"');
    await signup.keyboard.press('Enter');

    await signup.waitForURL(/#\/pages\/index\/index/);
    // The welcome message opens over Home and takes the focus; Escape reads it later, and the focus is on the page's
    // heading (the Register button that led here is gone).
    await focusKeptIn(signup, 'Welcome to Coinvest', ['button "Read later"', 'button "OK"']);
    await signup.keyboard.press('Escape');
    await signup.getByRole('alertdialog').waitFor({ state: 'detached' });
    expect((await focus(signup)).said).toBe('heading "Coinvest"');

    // The app started again on Home: the unread message opens on the very first page, before any key press (the
    // shell loads the focus module only at a navigation or key press; the dialog asks for it as it opens), and still
    // takes the focus and keeps Tab inside.
    const again = watch(await signup.context().newPage());
    await again.goto('/#/pages/index/index');
    await again.getByRole('alertdialog', { name: 'Welcome to Coinvest' }).waitFor();
    await again.waitForFunction(() => !!document.activeElement?.closest('[aria-modal="true"]'));
    expect(await focus(again)).toMatchObject({ said: 'button "Read later"', inDialog: true });
    await again.keyboard.press('Tab');
    expect(await focus(again)).toMatchObject({ said: 'button "OK"', inDialog: true, ring: true });
    await again.keyboard.press('Tab');
    expect(await focus(again)).toMatchObject({ said: 'button "Read later"', inDialog: true, ring: true });
    await again.close();
  });
});

it('logs in with the keyboard alone on another phone: Home opens with the focus on its heading', async () => {
  // The money and the bank card arrive as they would (a recharge approved, a card added), not by keyboard.
  const { data } = await callApi<{ token: string }>('/users/login', { form: { username: phone, password } });
  await creditUsdt(phone, data.token, '200');
  // Two cards: the payee is then chosen in a sheet.
  await addBankCard(phone, data.token);
  await addBankCard(phone, data.token, { bank_code: 'SCB', ifsc: 'SICO0005678' }, '34');
  await markAllRead(phone, password);

  page = await openPage();
  await timed('log in', async () => {
    await page.goto('/#/pages/login/login');
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await tabTo(page, 'textbox "Username, mobile number or e-mail"');
    await page.keyboard.type(phone);
    await page.keyboard.press('Tab');
    expect((await focus(page)).said).toBe('textbox "Password"');
    await page.keyboard.type(password);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Space');
    await page.keyboard.press('Tab');
    expect((await focus(page)).said).toBe('button "Log in"');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/pages\/index\/index/);
    await headingFocused(page, 'Coinvest');
  });
});

it('buys an option with the keyboard alone: the confirmation takes the focus, Escape gives it back', async () => {
  await timed('buy an option', async () => {
    await tabTo(page, 'link "Options"');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/pages\/Option\/Option/);
    await headingFocused(page, 'Options');

    // A radio group is one Tab stop, its checked radio; the arrow keys move within it and check what they reach.
    await tabTo(page, 'radio "BTC"');
    await expect.poll(() => radioFocused(page)).toBe('radio "BTC" checked');
    await page.keyboard.press('ArrowRight');
    await expect.poll(() => radioFocused(page)).toBe('radio "ETH" checked');
    await page.waitForURL(/#\/pages\/Option\/Option\?code=ETH/);
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => radioFocused(page)).toBe('radio "BTC" checked');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => radioFocused(page)).toMatch(/^radio "(?!BTC")[A-Z]+" checked$/);
    await page.keyboard.press('Home');
    await expect.poll(() => radioFocused(page)).toBe('radio "BTC" checked');
    await page.waitForURL(/#\/pages\/Option\/Option\?code=BTC/);
    // One Tab leaves the group: the coins are not stops of their own.
    await page.keyboard.press('Tab');
    expect((await focus(page)).said).not.toMatch(/^radio "[A-Z]+"$/);

    // The term: the first is checked until another is chosen.
    await tabTo(page, 'radio "1 min · 80%"');
    await expect.poll(() => radioFocused(page)).toBe('radio "1 min · 80%" checked');
    await page.keyboard.press('ArrowDown');
    await expect.poll(() => radioFocused(page)).toMatch(/^radio "3 min · \d+%" checked$/);
    await page.keyboard.press('ArrowUp');
    await expect.poll(() => radioFocused(page)).toBe('radio "1 min · 80%" checked');
    expect(await page.getByRole('radio', { name: /^3 min/ }).getAttribute('aria-checked')).toBe('false');
    await tabTo(page, 'textbox "Amount (USDT)"');
    await page.keyboard.type('10');
    await tabTo(page, 'button "Buy up"');
    await page.keyboard.press('Enter');

    await focusKeptIn(page, 'Confirm your order', ['button "Cancel"', 'button "Confirm"']);
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    expect((await focus(page)).said).toBe('button "Buy up"');

    await page.keyboard.press('Enter');
    await focusKeptIn(page, 'Confirm your order', ['button "Cancel"', 'button "Confirm"']);
    await page.keyboard.press('Tab');
    expect((await focus(page)).said).toBe('button "Confirm"');
    // Whether the order's card ever shows in the pending list ("Opening…", then its countdown): its minute lasts 3 s on
    // the run's 20× clock, so on a busy machine it can open, settle and leave the list while the dialogs below are
    // answered. Watched from now, every change of the page seen.
    await page.evaluate(() => {
      const seen = window as unknown as { __orderListed?: boolean };
      seen.__orderListed = false;
      new MutationObserver(() => {
        if (document.querySelector('#option-orders .opt-order')) seen.__orderListed = true;
      }).observe(document.body, { childList: true, subtree: true });
    });
    await page.keyboard.press('Enter');
    await toastSeen(page, 'Successful transaction!', 30_000);
    // The first order offers notifications: a dialog of its own, which Escape answers "Not now".
    await focusKeptIn(page, 'Get notified', ['button "Not now"', 'button "Turn on"']);
    await page.keyboard.press('Escape');
    await page.getByRole('alertdialog').waitFor({ state: 'detached' });
    expect((await focus(page)).said).toBe('button "Buy up"');
    await expect
      .poll(() => page.evaluate(() => (window as unknown as { __orderListed?: boolean }).__orderListed))
      .toBe(true);
  });
});

it('withdraws with the keyboard alone: the payee sheet, the amount, the confirmation, the record', async () => {
  await timed('withdraw', async () => {
    await tabTo(page, 'link "Home"');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/pages\/index\/index/);
    await headingFocused(page, 'Coinvest');
    await tabTo(page, 'link "Withdraw"');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/pages\/Withdraw\/Withdraw/);
    await headingFocused(page, 'Withdraw');

    // The payee is chosen in a sheet: it takes the focus, keeps it, and Escape closes it onto the control that
    // opened it; Enter on a card chooses it.
    const payee = await tabTo(page, /^button ".*•••• \d{4}.*Change"$/);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Choose a bank card' }).waitFor();
    const cards = ['menuitemradio "Kasikornbank', 'menuitemradio "Siam Commercial Bank'];
    expect(await focus(page)).toMatchObject({ inDialog: true, ring: true });
    expect((await focus(page)).said).toMatch(cards[0]!);
    await page.keyboard.press('Tab');
    expect((await focus(page)).said).toMatch(cards[1]!);
    await page.keyboard.press('Tab');
    expect((await focus(page)).said).toMatch(cards[0]!);
    await page.keyboard.press('Escape');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    expect((await focus(page)).said).toBe(payee);
    await page.keyboard.press('Enter');
    await page.getByRole('dialog', { name: 'Choose a bank card' }).waitFor();
    await page.keyboard.press('Enter');
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await expect.poll(async () => (await focus(page)).said).toMatch(/^button "Kasikornbank •••• \d{4}/);

    await tabTo(page, 'textbox "Amount (USDT)"');
    await page.keyboard.type('50');
    await tabTo(page, 'textbox "Transaction password"');
    await page.keyboard.type(paypass);
    await page.keyboard.press('Tab');
    expect((await focus(page)).said).toBe('button "Withdraw"');
    await page.keyboard.press('Enter');

    await focusKeptIn(page, 'Confirm the withdrawal', ['button "Cancel"', 'button "Confirm"']);
    await page.keyboard.press('Tab');
    await page.keyboard.press('Enter');
    await page.waitForURL(/#\/pages\/Withdraw\/orderDetails\?id=\d+/);
    await toastSeen(page, 'Submitted successfully, please wait for the review!', 30_000);
    await expect.poll(() => page.locator('.funds-summary .status-badge').textContent()).toBe('In review');
    await headingFocused(page, 'Withdrawal details');
  });
});

it('draws the focus ring in the dark theme and in Arabic (right to left)', async () => {
  for (const [name, options, colour] of [
    ['dark', { colorScheme: 'dark' }, 'rgb(159, 227, 255)'],
    ['arabic', { locale: 'ar' }, 'rgb(11, 42, 61)'],
  ] as const) {
    const shown = await openPage(options);
    await shown.goto('/#/pages/login/login');
    await shown.locator('h1').waitFor();
    // The username field: its box carries the ring.
    await tabTo(shown, /^textbox /);
    expect(
      await shown.evaluate(() => getComputedStyle(document.activeElement!.closest('.field-box')!).outlineColor),
    ).toBe(colour);
    await screenshot(shown, `keyboard-focus-${name}`);
  }
});
