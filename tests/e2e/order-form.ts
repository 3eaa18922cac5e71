// An order placed through its form, as a customer places it: the form's button, the confirmation's Confirm, the
// server's answer and the toast that tells it. One place for the journeys' one honest retry: a refusal for want of a
// fresh price.
import type { Page } from 'playwright-core';
import { texts } from '../../src/api-contract/texts.ts';
import { collectToasts } from './browser.ts';

/** The most times a journey taps again after a refusal for want of a fresh price before it takes that answer. */
const PRICE_TRIES = 20;

type Watched = Window & { __orderToasts?: string[] };

/** Where to place an order and the toast that tells its answer. */
export interface PlaceOptions {
  /** The order's POST, the API path without `/api` (an option order by default). */
  path?: string;
  /** The toast the answer should bring: its words, or a pattern. */
  toast: string | RegExp;
}

/**
 * Places an order through the open page's form: `ask` taps the form's button (Buy up, Buy BTC…), which opens the
 * confirmation; Confirm is tapped there, the server's answer to the order's POST is awaited, and then the toast
 * `toast`, caught as it appears among those shown from the tap on (a toast leaves the screen after 1.5–4 s, which a
 * look from a busy machine can come after; an option settling meanwhile toasts too). Resolves with the toast's text
 * once the confirmation has closed; rejects with the toasts shown when the expected one did not come.
 *
 * An order is refused when the coin's last price is older than 10 market seconds, which on the journeys' 20× market
 * clock is 500 ms of real time: a machine busy with the whole test run can hold the feed back that long. Such a refusal
 * took nothing, and the customer taps again as the app invites; so does this, at most PRICE_TRIES times in all.
 */
export async function placeInForm(
  page: Page,
  ask: () => Promise<void>,
  { path = '/coin/order/add', toast }: PlaceOptions,
): Promise<string> {
  const wanted = typeof toast === 'string' ? { text: toast } : { source: toast.source, flags: toast.flags };
  for (let tries = 1; ; tries++) {
    await ask();
    const confirmation = page.getByRole('alertdialog').filter({ has: page.getByRole('button', { name: 'Confirm' }) });
    await confirmation.waitFor();
    // Every toast from now on, each an element of its own; the one on screen now is not counted.
    await page.evaluate(collectToasts, { key: '__orderToasts', skipShown: true });
    const answered = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && new URL(response.url()).pathname === `/api${path}` && response.ok(),
    );
    await confirmation.getByRole('button', { name: 'Confirm' }).click();
    const { msg } = (await (await answered).json()) as { ret: number; msg: string };
    await confirmation.waitFor({ state: 'detached' });
    if (msg === texts.priceUnavailable.message && tries < PRICE_TRIES) continue;
    const seen = page.waitForFunction((want) => {
      const shown = (window as Watched).__orderToasts ?? [];
      return shown.find((text) =>
        'text' in want ? text === want.text : new RegExp(want.source, want.flags).test(text),
      );
    }, wanted);
    try {
      return (await (await seen).jsonValue()) as string;
    } catch (error) {
      const shown = await page.evaluate(() => (window as Watched).__orderToasts ?? []).catch(() => []);
      throw new Error(
        `the order was answered "${msg}", and the toast ${String(toast)} did not come; shown: ${JSON.stringify(shown)}`,
        {
          cause: error,
        },
      );
    }
  }
}
