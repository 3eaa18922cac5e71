// An order placed through its form, as a customer places it: the form's button, the confirmation's Confirm, the
// server's answer and the toast that tells it. One place for the journeys' one honest retry: a refusal for want of a
// fresh price.
import type { Page } from 'playwright-core';
import { texts } from '../../src/api-contract/texts.ts';

/** The most times a journey taps again after a refusal for want of a fresh price before it takes that answer. */
const PRICE_TRIES = 20;

type Watched = Window & { __orderToast?: string | null };

/**
 * Places an order through the open page's form: `ask` taps the form's button (Buy up, Buy short…), which opens the
 * confirmation; Confirm is tapped there and the server's answer to the order's POST (`path`, the API path without
 * `/api`) is awaited. Resolves with the toast the app showed for that answer ("Successful transaction!" or the
 * refusal's words), caught as it appears: a toast leaves the screen after 1.5 s, which a look from a busy machine can
 * come after. The confirmation has closed when this resolves.
 *
 * An order is refused when the coin's last price is older than 10 market seconds, which on the journeys' 20× market
 * clock is 500 ms of real time: a machine busy with the whole test run can hold the feed back that long. Such a refusal
 * took nothing, and the customer taps again as the app invites; so does this, at most PRICE_TRIES times in all.
 */
export async function placeInForm(page: Page, ask: () => Promise<void>, path = '/coin/order/add'): Promise<string> {
  for (let tries = 1; ; tries++) {
    await ask();
    const confirmation = page.getByRole('alertdialog').filter({ has: page.getByRole('button', { name: 'Confirm' }) });
    await confirmation.waitFor();
    // The next toast, whatever is on screen now: each toast is an element of its own.
    await page.evaluate(() => {
      const watched = window as Watched;
      watched.__orderToast = null;
      const before = document.querySelector('.toast');
      const observer = new MutationObserver(() => {
        const toast = document.querySelector('.toast');
        if (!toast || toast === before || !toast.textContent) return;
        watched.__orderToast = toast.textContent;
        observer.disconnect();
      });
      observer.observe(document, { childList: true, subtree: true, characterData: true });
    });
    const answered = page.waitForResponse(
      (response) =>
        response.request().method() === 'POST' && new URL(response.url()).pathname === `/api${path}` && response.ok(),
    );
    await confirmation.getByRole('button', { name: 'Confirm' }).click();
    const { msg } = (await (await answered).json()) as { ret: number; msg: string };
    const shown = (await (await page.waitForFunction(() => (window as Watched).__orderToast)).jsonValue()) as string;
    await confirmation.waitFor({ state: 'detached' });
    if (msg !== texts.priceUnavailable.message || tries >= PRICE_TRIES) return shown;
  }
}
