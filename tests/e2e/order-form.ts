// An order placed as a customer places it: through its form (the form's button, the confirmation's Confirm, the
// server's answer and the toast that tells it) or over the API as the app sends it. One place for the journeys' honest
// retries: a refusal for want of a fresh price, and an order void for want of one after it was accepted.
import type { Page } from 'playwright-core';
import { ROUTES } from '../../src/api-contract/routes.ts';
import { texts } from '../../src/api-contract/texts.ts';
import { collectToasts } from './browser.ts';
import { callApi, type Envelope } from './pwa.ts';

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

/** What callApi sends with an order: the caller's token, the order's fields, another server's address. */
interface ApiOrder {
  token: string;
  form: Record<string, string>;
  base?: string;
}

/**
 * Places an order over the API (a POST of `path`, as the app sends it on a customer's tap) and, while it is refused
 * for want of a fresh price, waits for the next price of its coin (`form.code`) to be recorded and sends it again, at
 * most PRICE_TRIES times in all (the rule of placeInForm, where the customer sees the price move before tapping
 * again). Resolves with the last answer, whatever it is: the caller checks it.
 */
export async function placeOverApi<T>(path: string, order: ApiOrder): Promise<Envelope<T>> {
  for (let tries = 1; ; tries++) {
    const answer = await callApi<T>(path, order);
    if (answer.msg !== texts.priceUnavailable.message || tries >= PRICE_TRIES) return answer;
    await nextPrice(order);
  }
}

/**
 * Resolves once a price of the order's coin is recorded after the last one the server has now (GET /coin/data/rate,
 * its `at`, market time); rejects after readUntil's 30 s.
 */
async function nextPrice({ form, base }: ApiOrder): Promise<void> {
  const rate = () =>
    callApi<{ at: string }>('/coin/data/rate', { method: 'GET', form: { code: form.code ?? '' }, base }).then(
      (answer) => (answer.ret === 1 ? answer.data.at : null),
    );
  const last = await rate();
  await readUntil(rate, (at) => at !== null && at !== last, `the next price of ${form.code}`);
}

/** The most option orders openedOption() places before it takes a void one as the answer. */
const VOID_ROUNDS = 5;

/**
 * Buys an option over the API (placeOverApi) and waits until it has opened at its start price ('holding'). One that
 * found no price recorded within 10 market seconds of its acceptance (500 ms of real time on the journeys' 20× clock)
 * never opens: it is void and refunded, and this buys again, at most VOID_ROUNDS orders in all. Resolves with the
 * holding order, or with the last void one when none opened (the caller checks its status); rejects when an order is
 * refused or stays opening for 30 s.
 */
export async function openedOption<T extends { id: number; status: string; outcome: string | null }>(
  order: ApiOrder,
): Promise<T> {
  for (let round = 1; ; round++) {
    const placed = await placeOverApi<T>('/coin/order/add', order);
    if (placed.ret !== 1) throw new Error(`the option order was answered "${placed.msg}"`);
    const read = async () =>
      (await callApi<T>('/coin/order/info', { ...order, method: 'GET', form: { id: String(placed.data.id) } })).data;
    const now = await readUntil(read, (option) => option.status !== 'opening', `option #${placed.data.id}`);
    if (now.status === 'holding' || now.outcome !== 'void' || round >= VOID_ROUNDS) return now;
  }
}

/** What the details page of a settled option says of its end price, and of an option void at its end. */
const SETTLED = /^Settled at the recorded price of /;
const VOID_AT_END = 'No market price at the end time: amount returned';

/**
 * Buys an option (openedOption), opens its details page and watches it settle there: the page asks for the order
 * again once it is due. An option with no price recorded within 10 market seconds before its end time (500 ms of real
 * time on the journeys' 20× clock) settles void and its amount is returned; the page says so, and this buys again, at
 * most VOID_ROUNDS orders in all. Resolves with the order the page shows settled at a recorded price; rejects when
 * none did, or when the page says neither within 30 s.
 */
export async function optionSettledOnPage<T extends { id: number; status: string; outcome: string | null }>(
  page: Page,
  order: ApiOrder,
): Promise<T> {
  for (let round = 1; ; round++) {
    const opened = await openedOption<T>(order);
    if (opened.status !== 'holding') throw new Error(`option #${opened.id} did not open: ${JSON.stringify(opened)}`);
    await page.goto(`/#${ROUTES.optionRecord}?id=${opened.id}`);
    const said = page
      .getByText(SETTLED)
      .or(page.getByText(VOID_AT_END, { exact: true }))
      .first();
    await said.waitFor({ timeout: 30_000 });
    if (SETTLED.test((await said.textContent()) ?? '')) return opened;
    if (round >= VOID_ROUNDS) throw new Error(`option #${opened.id} was void at its end, the ${round}th in a row`);
    console.log(`option #${opened.id} found no price within 10 market seconds of its end: void; buying again`);
  }
}

/**
 * Places a contract market order over the API (placeOverApi) and waits, over the history list, until the next
 * recorded tick has filled it. One that found no price recorded within 10 market seconds of its acceptance is void
 * (its reserve released, nothing traded), and this places it again, at most VOID_ROUNDS orders in all. Resolves with
 * the filled order; rejects naming the last order's state when none filled.
 */
export async function filledMarketOrder<T extends { id: number; status: string }>(order: ApiOrder): Promise<T> {
  for (let round = 1; ; round++) {
    const placed = await placeOverApi<T>('/coin/trans/add', order);
    if (placed.ret !== 1) throw new Error(`the market order was answered "${placed.msg}"`);
    const read = async () =>
      (await callApi<{ lists: T[] }>('/coin/trans/lists', { ...order, form: { status: 'history' } })).data.lists.find(
        (item) => item.id === placed.data.id,
      );
    const ended = (await readUntil(read, (item) => item !== undefined, `market order #${placed.data.id}`))!;
    if (ended.status === 'filled') return ended;
    if (round >= VOID_ROUNDS) throw new Error(`market order #${placed.data.id} was void ${round} times`);
  }
}

/**
 * Reads `read` again until `done` holds for its answer, 200 ms apart, and resolves with that answer; rejects naming
 * `what` and the last answer after 30 s (the journeys' bound for the next recorded tick on a busy machine). A loop of
 * its own rather than expect.poll, which a file's beforeAll cannot call.
 */
async function readUntil<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string): Promise<T> {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`${what} is still ${JSON.stringify(value)} after 30 s`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}
