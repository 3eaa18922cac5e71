// `npm run ops -- backup FILE` and `restore FILE` on the embedded database: a backup taken while
// the server runs (through its operator socket, under writes) or from the folder; a restore that
// refuses a running server and a file that is no backup, keeps the replaced database aside, and
// brings back exactly the backed-up data, migrated and ready to start.
import { existsSync, mkdtempSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, inject, it } from 'vitest';
import { eq, sql } from 'drizzle-orm';
import { openDatabase, rowsOf, type Database } from '../../src/server/db/connection.ts';
import { configEntries, users } from '../../src/server/db/schema.ts';
import { runOperatorCommand } from '../../src/server/ops/commands.ts';
import { serveOperatorCommands } from '../../src/server/ops/socket.ts';
import { restoreEmbedded } from '../../src/server/ops/backup.ts';
import { USDT, ledgerMismatches, post } from '../../src/server/domain/ledger.ts';
import { runOpsCommand } from './server-process.ts';

const root = mkdtempSync(join(tmpdir(), 'coinvest-backup-'));
const dataDir = join(root, 'data');
let database: Database | null = null;
let stopSocket: (() => Promise<void>) | null = null;

/** The real operator command, as an operator types it, on this test's data folder. */
function ops(...argv: string[]) {
  return opsIn(dataDir, ...argv);
}

/** The command on `folder`: its exit code and all it printed (nothing else, so answers compare whole). */
async function opsIn(folder: string, ...argv: string[]) {
  const { code, output } = await runOpsCommand(argv, { env: { DATA_DIR: folder } });
  return { code, output };
}

/** A server's hold on the folder: the database open (its lock file) and the operator socket. */
async function startServerLike() {
  database = await openDatabase({ kind: 'pglite', dataDir });
  const db = database.db;
  stopSocket = await serveOperatorCommands(dataDir, (argv) =>
    runOperatorCommand({ db, now: new Date(), production: false }, argv),
  );
  return db;
}
async function stopServerLike() {
  await stopSocket?.();
  await database?.close();
  stopSocket = null;
  database = null;
}

const marker = async (db: Database['db'], key: string) =>
  (await db.select().from(configEntries).where(eq(configEntries.key, key))).map((row) => row.value);

beforeAll(async () => {
  // A migrated database in the folder, made from the test run's snapshot (fast) by a restore.
  expect(await restoreEmbedded(dataDir, inject('dbSnapshot'))).toContain('Restored the embedded database');
  const db = await startServerLike();
  await db.insert(users).values({
    username: 'backup-owner',
    passwordHash: 'x',
    nickname: 'o',
    currency: 'THB',
    inviteCode: 'BACKUP01',
    createdAt: new Date(),
  });
  await db.insert(configEntries).values({ act: 'test', key: 'kept', value: 'before the backup' });
}, 180_000);

afterAll(async () => {
  await stopServerLike();
});

it('backs up the live database through the running server while it writes, and refuses to overwrite a backup', async () => {
  const db = database!.db;
  const [owner] = await db.select().from(users).where(eq(users.username, 'backup-owner'));
  let writing = true;
  let writes = 0;
  const writer = (async () => {
    while (writing) {
      await db.transaction((tx) =>
        post(
          tx,
          { userId: owner!.id, asset: USDT, amount: '1', kind: 'test_credit', reference: `live:${++writes}` },
          new Date(),
        ),
      );
      await new Promise((resolve) => setImmediate(resolve)); // like requests arriving: let the socket be heard
    }
  })();
  const answer = await ops('backup', join(root, 'live.tar.gz'));
  writing = false;
  await writer;
  expect(answer).toMatchObject({
    code: 0,
    output: expect.stringMatching(/^Backed up the embedded database to .*live\.tar\.gz \(\d+\.\d MB, \d+ ms\)\.$/),
  });
  expect(statSync(join(root, 'live.tar.gz')).mode & 0o777).toBe(0o600);
  expect(writes).toBeGreaterThan(0);

  expect(await ops('backup', join(root, 'live.tar.gz'))).toEqual({
    code: 1,
    output: `${join(root, 'live.tar.gz')} already exists: choose a new file name (a backup never overwrites one).`,
  });
}, 180_000);

it('refuses to restore while a server holds the folder, and changes nothing', async () => {
  expect(await ops('restore', join(root, 'live.tar.gz'))).toEqual({
    code: 1,
    output: `The server (process ${process.pid}) is using the database in ${dataDir}. Stop it first, then restore.`,
  });
  expect(await marker(database!.db, 'kept')).toEqual(['before the backup']);
  expect(readdirSync(dataDir).filter((name) => name.includes('before-restore'))).toEqual([]);
}, 90_000);

it('restores the backup: the change made after it is gone, the backed-up data is back, the old one kept aside', async () => {
  const db = database!.db;
  await db.update(configEntries).set({ value: 'changed after the backup' }).where(eq(configEntries.key, 'kept'));
  await db.insert(configEntries).values({ act: 'test', key: 'added', value: 'after the backup' });
  await stopServerLike();

  const restored = await ops('restore', join(root, 'live.tar.gz'));
  expect(restored.code).toBe(0);
  expect(restored.output).toMatch(
    /^Restored the embedded database in .*\/data\/pglite from .*live\.tar\.gz\.\nThe database it replaced is kept in .*\/data\/pglite\.before-restore-\d{4}-\d\d-\d\dT[\d-]+Z \(delete it when you no longer need it\)\.$/,
  );
  const aside = readdirSync(dataDir).filter((name) => name.startsWith('pglite.before-restore-'));
  expect(aside).toHaveLength(1);

  // The restored database starts like the server starts it (migrated) and holds the backed-up data.
  const db2 = await startServerLike();
  expect(await marker(db2, 'kept')).toEqual(['before the backup']);
  expect(await marker(db2, 'added')).toEqual([]);
  expect(await ledgerMismatches(db2)).toEqual([]);
  const [applied] = rowsOf<{ count: number }>(
    await db2.execute(sql`select count(*)::int as count from drizzle.__drizzle_migrations`),
  );
  const journal = (await import('../../src/server/db/migrations/meta/_journal.json', { with: { type: 'json' } }))
    .default as { entries: unknown[] };
  expect(applied!.count).toBe(journal.entries.length);
  // The database it replaced is intact in its folder.
  await stopServerLike();
  expect(existsSync(join(dataDir, aside[0]!, 'PG_VERSION'))).toBe(true);
}, 240_000);

// Each command is a process of its own (about 3 s of a core to start alone): in a clean-clone run of `npm test` these
// three in one test took 161 s of its 180; the backup and the two refusals are two tests.
it('backs up from the folder when no server runs', async () => {
  expect(await ops('backup', join(root, 'offline.tar.gz'))).toMatchObject({
    code: 0,
    output: expect.stringContaining('Backed up the embedded database'),
  });
}, 180_000);

it('refuses to restore a file that is not a backup, or no file, and changes nothing', async () => {
  const junk = join(root, 'not-a-backup.tar.gz');
  writeFileSync(junk, 'hello, this is not a database');
  const missing = join(root, 'missing.tar.gz');
  const before = readdirSync(dataDir);
  expect(await Promise.all([ops('restore', junk), ops('restore', missing)])).toEqual([
    { code: 1, output: `${junk} is not a backup of the embedded database (made by \`npm run ops -- backup\`).` },
    { code: 1, output: `${missing} does not exist.` },
  ]);
  expect(readdirSync(dataDir)).toEqual(before);
}, 180_000);

it('restores a backup into a new, empty data folder (a new machine): the server starts on it with every record', async () => {
  // The records of the live backup, read from the folder it was taken from.
  const source = await startServerLike();
  const [owner] = await source.select().from(users).where(eq(users.username, 'backup-owner'));
  const backedUp = rowsOf<{ entries: number }>(
    await source.execute(sql`select count(*)::int as entries from ledger_entries where user_id = ${owner!.id}`),
  )[0]!.entries;
  await stopServerLike();

  const fresh = join(root, 'new-machine', 'data');
  const restored = await opsIn(fresh, 'restore', join(root, 'offline.tar.gz'));
  expect(restored).toEqual({
    code: 0,
    output: `Restored the embedded database in ${join(fresh, 'pglite')} from ${join(root, 'offline.tar.gz')}.`,
  });
  expect(readdirSync(fresh).filter((name) => name.includes('before-restore'))).toEqual([]);

  const copy = await openDatabase({ kind: 'pglite', dataDir: fresh });
  try {
    const [again] = await copy.db.select().from(users).where(eq(users.username, 'backup-owner'));
    expect(again?.id).toBe(owner!.id);
    const [count] = rowsOf<{ entries: number }>(
      await copy.db.execute(sql`select count(*)::int as entries from ledger_entries where user_id = ${owner!.id}`),
    );
    expect(count!.entries).toBe(backedUp);
    expect(await marker(copy.db, 'kept')).toEqual(['before the backup']);
    expect(await ledgerMismatches(copy.db)).toEqual([]);
  } finally {
    await copy.close();
  }
}, 180_000);

it('on PostgreSQL both commands print the pg_dump and pg_restore commands to use', async () => {
  const answer = await runOpsCommand(['backup', 'nightly.dump'], {
    env: { DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' },
  });
  expect(answer.code).toBe(1);
  expect(answer.output).toContain('pg_dump --format=custom --no-owner --file=nightly.dump "$DATABASE_URL"');
  expect(answer.output).toContain(
    'pg_restore --clean --if-exists --no-owner --single-transaction --dbname="$DATABASE_URL" nightly.dump',
  );
}, 90_000);
