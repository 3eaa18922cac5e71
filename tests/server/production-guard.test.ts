// Test balances (`npm run ops -- credit`) are for development only, and the database says which it
// is, not the operator's shell: a production server records itself in the database when it starts,
// and from then on the command refuses there, with the server stopped and NODE_ENV unset too.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import Big from 'big.js';
import { and, eq } from 'drizzle-orm';
import { startHarness, type Harness } from './harness.ts';
import { customer } from './helpers.ts';
import { balanceOf, fundsState } from './funds-helpers.ts';
import { runOpsCommand, startServer } from './server-process.ts';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';
import { productionSince, recordProduction } from '../../src/server/domain/config-entries.ts';
import { restoreEmbedded } from '../../src/server/ops/backup.ts';
import { openDatabase } from '../../src/server/db/connection.ts';
import { DEMO_ACCOUNT } from '../../src/server/db/seed.ts';
import { balances, users } from '../../src/server/db/schema.ts';

const REFUSED =
  /^Test balances are for development only: a production server has run on this database \(since (\S+)\)\.$/;

// One database for both tests, in this order: a development database until the second test records a production
// start on it (a harness on the embedded database is a copy of the test snapshot, a few seconds of a core each).
describe('a database a production server has run on', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h.close();
  });

  /** The command as a shell outside production mode runs it. */
  const credit = (login: string) =>
    runOperatorCommand({ db: h.database.db, now: h.clock.now(), production: false }, ['credit', login, 'USDT', '5']);

  it('a development database credits them', async () => {
    const owner = await customer(h);
    expect(await productionSince(h.database.db)).toBeUndefined();
    expect(await credit(owner.phone)).toMatchObject({
      ok: true,
      output: expect.stringMatching(/^Credited 5 USDT to /),
    });
    expect(await balanceOf(h, owner.id)).toEqual({ available: '5.00000000', frozen: '0.00000000' });
  });

  it('refuses test balances whatever the shell says, and keeps the date of the first production start', async () => {
    const owner = await customer(h);
    const first = h.clock.now();
    await recordProduction(h.database.db, first);
    h.clock.advance(86_400_000);
    await recordProduction(h.database.db, h.clock.now());

    expect(await credit(owner.phone)).toEqual({ ok: false, output: expect.stringMatching(REFUSED) });
    expect((await credit(owner.phone)).output.match(REFUSED)![1]).toBe(first.toISOString());
    expect(await fundsState(h, owner.id)).toMatchObject({ balances: [], entries: [] });
  });
});

/** `npm run ops -- …` as an operator types it, on this embedded database folder, NODE_ENV not production. */
function ops(dataDir: string, ...argv: string[]) {
  return runOpsCommand(argv, { env: { NODE_ENV: 'development', DATA_DIR: dataDir } });
}

/** The real server on a migrated copy of the test snapshot in `dataDir`, in this mode; stopped (SIGTERM) before it
 * resolves. */
async function runServerOnce(dataDir: string, mode: 'production' | 'development') {
  await restoreEmbedded(dataDir, inject('dbSnapshot'));
  const server = await startServer({
    work: join(dataDir, '..'),
    name: mode,
    env: { NODE_ENV: mode, DATA_DIR: dataDir, DATABASE_URL: '', WEB_ROOT: '' },
  });
  await server.stop();
}

/** The demo account's USDT in the folder's database (the server stopped). */
async function demoUsdt(dataDir: string): Promise<string> {
  const database = await openDatabase({ kind: 'pglite', dataDir });
  try {
    const [row] = await database.db
      .select({ available: balances.available })
      .from(balances)
      .innerJoin(users, eq(users.id, balances.userId))
      .where(and(eq(users.username, DEMO_ACCOUNT.username), eq(balances.asset, 'USDT')));
    return new Big(row?.available ?? 0).toString();
  } finally {
    await database.close();
  }
}

// Real server processes on embedded database folders (this file runs in the `server` project only, tests/projects.ts).
// One folder a test: a restore, a server's start and stop, and the command in a process of its own take a core 15–20 s
// alone; in clean-clone runs of `npm test` (two such folders in one test) the test took 250, 275 and 328 s of its 360.
describe('the operator command on a stopped server', () => {
  const root = mkdtempSync(join(tmpdir(), 'coinvest-production-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const LIMIT = { timeout: 360_000 };

  it(
    'refuses test balances on the data folder of a stopped production server, outside production mode',
    LIMIT,
    async () => {
      const productionDir = join(root, 'production', 'data');
      await runServerOnce(productionDir, 'production');
      const before = await demoUsdt(productionDir);

      const refused = await ops(productionDir, 'credit', DEMO_ACCOUNT.username, 'USDT', '1');
      expect(refused).toMatchObject({ code: 1, output: expect.stringMatching(REFUSED) });
      expect(await demoUsdt(productionDir)).toBe(before);
    },
  );

  it('credits them on the data folder of a stopped development server', LIMIT, async () => {
    const developmentDir = join(root, 'development', 'data');
    await runServerOnce(developmentDir, 'development');
    const before = await demoUsdt(developmentDir);

    expect(await ops(developmentDir, 'credit', DEMO_ACCOUNT.username, 'USDT', '1')).toMatchObject({
      code: 0,
      output: expect.stringMatching(/^Credited 1 USDT to demo /),
    });
    expect(await demoUsdt(developmentDir)).toBe(new Big(before).plus(1).toString());
  });
});
