// The console's system page in Chromium: an admin sees the server processes alive (with this build),
// the books' latest check, the outbox by channel and the simulated feed; a balance changed behind the
// server's back turns the page's banner on at the next check and refresh. A reviewer has no link to
// the page and the server refuses the call to their role. Its own server on a throwaway PostgreSQL,
// so the test can change a balance beside it; the books are checked every 2 s.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, expect, inject, it } from 'vitest';
import { launch, screenshot } from './browser.ts';
import { startServer, type ServerProcess } from '../server/server-process.ts';
import { startPostgres, type PostgresCluster } from '../server/postgres.ts';
import {
  CONSOLE_DESKTOP,
  CONSOLE_NARROW,
  enrolOperator,
  firstSignIn as firstSignInAs,
  opsOn,
  type Operator,
} from './console-kit.ts';
import { DEMO_ACCOUNT } from '../../src/server/db/seed.ts';

const DESKTOP = CONSOLE_DESKTOP;
const NARROW = CONSOLE_NARROW;
const NEW_PASSWORD = 'a long console passphrase';

const work = mkdtempSync(join(tmpdir(), 'coinvest-console-system-'));
let postgres: PostgresCluster;
let databaseUrl = '';
let server: ServerProcess;
let browser: Browser;
const contexts: BrowserContext[] = [];
let page: Page | undefined;

beforeAll(async () => {
  postgres = await startPostgres();
  databaseUrl = await postgres.createDatabase('coinvest');
  [server, browser] = await Promise.all([
    startServer({
      work,
      env: {
        DATABASE_URL: databaseUrl,
        DATA_DIR: join(work, 'data'),
        WEB_ROOT: inject('webRoot'),
        LOG_LEVEL: 'warn',
        WORKERS: '',
        RECONCILE_EVERY_SECONDS: '2',
      },
    }),
    launch(),
  ]);
}, 180_000);

afterEach(async ({ task }) => {
  if (page && task.result?.errors?.length)
    await screenshot(page, `console-system-failed-${task.name.replace(/\W+/g, '-').slice(0, 60)}`);
});

afterAll(async () => {
  await Promise.all(contexts.map((context) => context.close()));
  await browser?.close();
  await server?.stop();
  await postgres?.stop();
  rmSync(work, { recursive: true, force: true });
});

const enrol = (name: string, role: string) =>
  enrolOperator(opsOn({ dataDir: join(work, 'data'), databaseUrl }), name, role);

async function consolePage(viewport = DESKTOP): Promise<Page> {
  const context = await browser.newContext({ viewport, locale: 'en-US', baseURL: server.base });
  contexts.push(context);
  return context.newPage();
}

const firstSignIn = (on: Page, operator: Operator, landing: string) =>
  firstSignInAs(on, operator, NEW_PASSWORD, landing);

async function sql(statement: string) {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    return (await client.query(statement)).rows;
  } finally {
    await client.end();
  }
}

/** An amount as the console writes it: groups of three. */
/** A money amount as the console writes it: grouped by three, its trailing zeros gone but two decimals kept. */
const grouped = (amount: string) =>
  amount.replace(/(\.\d\d\d*?)0+$/, '$1').replace(/^\d+/, (whole) => whole.replace(/\B(?=(\d{3})+(?!\d))/g, ','));

/** The whole page, not only the viewport (the page is long): saved beside the others and looked at. */
const wholePage = (on: Page, name: string) =>
  on.screenshot({ path: join(inject('artifacts'), `${name}.png`), fullPage: true });

const cellsOf = (on: Page, table: string) =>
  on
    .getByTestId(table)
    .locator('tbody tr')
    .evaluateAll((rows) => rows.map((row) => [...row.querySelectorAll('td')].map((cell) => cell.textContent ?? '')));

it('an admin sees the processes alive, the books checked and the outbox; a corrupted balance raises the alert', async () => {
  const ada = await enrol('ada', 'admin');
  page = await consolePage();
  await firstSignIn(page, ada, 'Operators');
  await page.getByRole('navigation').getByRole('link', { name: 'System' }).click();
  await page.getByRole('heading', { name: 'System', level: 1 }).waitFor();

  // This server's process, alive, with the build it serves.
  const build = readFileSync(join(inject('webRoot'), 'build-id.txt'), 'utf8').trim();
  await expect
    .poll(() => cellsOf(page!, 'system-processes'))
    .toEqual([
      [expect.any(String), String(server.child.pid), '1.0.1', build, expect.any(String), expect.any(String), 'Alive'],
    ]);
  await page
    .getByText(`This answer came from process`)
    .filter({ hasText: `build ${build}` })
    .waitFor();
  // The books: checked every 2 s, the page asks every 10 s.
  await expect
    .poll(() => page!.getByTestId('system-books').textContent(), { timeout: 30_000 })
    .toMatch(/^The books add up Last checked .+ by .+:\d+: \d+ balances\.$/);
  expect(await cellsOf(page, 'system-outbox')).toEqual([
    ['E-mail', '0', '0', '—'],
    ['SMS', '0', '0', '—'],
    ['Push', '0', '0', '—'],
  ]);
  await page.getByTestId('system-simulated').waitFor();
  expect((await cellsOf(page, 'system-coins')).map((row) => row[1])).toContain('Trading');
  await page.getByTestId('system-settlement').getByText('No option waits past its end.').waitFor();
  expect(await page.getByRole('alert').count()).toBe(0);
  await wholePage(page, 'console-system-1280');
  await page.setViewportSize(NARROW);
  await wholePage(page, 'console-system-768');
  await page.setViewportSize(DESKTOP);

  // Behind the server's back: the demo account's USDT grows by 5 without a ledger entry.
  const [demo] = await sql(`
    update balances set available = available + 5
    where user_id = (select id from users where username = '${DEMO_ACCOUNT.username}') and asset = 'USDT'
    returning user_id, available::text`);
  await page.getByRole('alert').filter({ hasText: 'The books do not add up.' }).waitFor({ timeout: 30_000 });
  expect(await page.getByRole('alert').textContent()).toMatch(
    /^The books do not add up\. Mismatches found at .+: 1\. Nothing was corrected; each is in the audit log\.$/,
  );
  expect(await cellsOf(page, 'system-mismatches')).toEqual([
    [
      'Available balance against its ledger entries',
      `balance:${demo.user_id}:USDT`,
      String(demo.user_id),
      'USDT',
      grouped((Number(demo.available) - 5).toFixed(8)),
      grouped(demo.available),
    ],
  ]);
  await wholePage(page, 'console-system-alert-1280');
  // Never corrected: the balance is as the test left it.
  expect(await sql(`select available::text from balances where user_id = ${demo.user_id} and asset = 'USDT'`)).toEqual([
    { available: demo.available },
  ]);
});

it('a reviewer has no link to the system page, and the server refuses the call to their role', async () => {
  const rita = await enrol('rita', 'reviewer');
  const reviewer = await consolePage();
  await firstSignIn(reviewer, rita, 'Review queues');
  expect(await reviewer.getByRole('navigation').getByRole('link', { name: 'System' }).count()).toBe(0);
  // The page's address (a link an admin sent) says whose page it is and leads back to the reviewer's own start; an
  // address of no page goes there at once.
  await reviewer.goto('/console/#/system');
  await expect
    .poll(() => reviewer.getByRole('alert').textContent())
    .toBe('This page is for operators with the Admin role; you are signed in with the Reviewer role.');
  await screenshot(reviewer, 'console-system-04-not-yours-1280');
  await reviewer.getByRole('link', { name: 'Go to your first page' }).click();
  await reviewer.getByRole('heading', { name: 'Review queues' }).waitFor();
  for (const nowhere of ['nothing-here', 'systemd']) {
    await reviewer.goto(`/console/#/${nowhere}`);
    await reviewer.getByRole('heading', { name: 'Review queues' }).waitFor();
    expect(await reviewer.getByRole('alert').count()).toBe(0);
  }
  const answer = await reviewer.evaluate(async () => {
    const token = sessionStorage.getItem('coinvest.console.token') ?? '';
    return (await fetch('/api/console/system', { headers: { token, lang: 'en' } })).json();
  });
  expect(answer).toEqual({ ret: 0, msg: 'Your role does not allow this!', data: null });
});
