// Backup and restore of the embedded database (PGlite): one gzipped tar of its data folder.
// A backup is taken from the live database (the server runs it, asked over the operator socket)
// or from the folder when no server holds it. A restore needs the folder free, and moves the
// current database aside instead of overwriting it. On PostgreSQL, pg_dump and pg_restore do both.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { gunzipSync } from 'node:zlib';
import { PGlite } from '@electric-sql/pglite';
import type { Db } from '../db/connection.ts';
import { embeddedDatabaseHolder, openDatabase } from '../db/connection.ts';

/** The answer to give on PostgreSQL: its own tools, with the exact commands. */
export const postgresBackupHelp = (file = 'coinvest.dump') =>
  [
    "The database is PostgreSQL (DATABASE_URL): back it up and restore it with its own tools (version ≥ the server's).",
    `  backup:   pg_dump --format=custom --no-owner --file=${file} "$DATABASE_URL"`,
    `  restore:  pg_restore --clean --if-exists --no-owner --single-transaction --dbname="$DATABASE_URL" ${file}`,
    'Stop every server process before a restore; they run the migrations again when they start.',
  ].join('\n');

/** The PGlite instance behind a drizzle database, or null on PostgreSQL. */
export function embeddedClient(db: Db): PGlite | null {
  const client = (db as unknown as { $client?: unknown }).$client;
  return client instanceof PGlite ? client : null;
}

/**
 * A consistent copy of a live embedded database. Inside a transaction no other statement runs
 * (PGlite runs one at a time), so the files are copied at one instant, after a checkpoint: every
 * committed write is in them, and recovery on load rolls back nothing but this idle transaction.
 */
export async function dumpEmbedded(client: PGlite): Promise<Uint8Array> {
  const dump = await client.transaction(async (tx) => {
    await tx.exec('checkpoint');
    return client.dumpDataDir('gzip');
  });
  return new Uint8Array(await dump.arrayBuffer());
}

/** Writes a backup file (owner-only: it holds every customer's records); never over another file. */
export async function backupEmbedded(db: Db, file: string): Promise<string> {
  const client = embeddedClient(db);
  if (!client) return postgresBackupHelp(file);
  if (existsSync(file))
    throw new BackupError(`${file} already exists: choose a new file name (a backup never overwrites one).`);
  const started = performance.now();
  const bytes = await dumpEmbedded(client);
  const partial = `${file}.partial`;
  writeFileSync(partial, bytes, { mode: 0o600 });
  renameSync(partial, file);
  return `Backed up the embedded database to ${file} (${(bytes.length / 1024 / 1024).toFixed(1)} MB, ${Math.round(performance.now() - started)} ms).`;
}

/** The tar inside a backup file if it is a PGlite data folder (gzipped or not), else an error. */
export function readEmbeddedDump(file: string): Uint8Array {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist.`);
  let bytes: Uint8Array = readFileSync(file);
  if (bytes[0] === 0x1f && bytes[1] === 0x8b) {
    try {
      bytes = gunzipSync(bytes);
    } catch {
      throw new BackupError(`${file} is not a backup of the embedded database (a damaged gzip file).`);
    }
  }
  const names = tarEntryNames(bytes);
  if (!names.has('PG_VERSION') || !names.has('global/pg_control') || !names.has('base')) {
    throw new BackupError(`${file} is not a backup of the embedded database (made by \`npm run ops -- backup\`).`);
  }
  return bytes;
}

/** Names of a tar's entries, without a leading "/" or "./"; empty when it is not a tar. */
function tarEntryNames(tar: Uint8Array): Set<string> {
  const names = new Set<string>();
  const text = (from: number, length: number) => {
    const field = tar.subarray(from, from + length);
    const end = field.indexOf(0);
    return Buffer.from(end < 0 ? field : field.subarray(0, end)).toString('utf8');
  };
  for (let offset = 0; offset + 512 <= tar.length;) {
    const name = text(offset, 100);
    if (!name) break;
    if (text(offset + 257, 5) !== 'ustar') return new Set();
    const size = Number.parseInt(text(offset + 124, 12).trim() || '0', 8);
    if (!Number.isFinite(size) || size < 0) return new Set();
    const prefix = text(offset + 345, 155);
    names.add((prefix ? `${prefix}/${name}` : name).replace(/^\.?\/+/, '').replace(/\/$/, ''));
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return names;
}

/**
 * Replaces the embedded database in `dataDir` with a backup. Refuses while a server holds the
 * folder; keeps the current database as `pglite.before-restore-<time>`; migrates the restored one.
 */
export async function restoreEmbedded(dataDir: string, file: string, now = new Date()): Promise<string> {
  const holder = embeddedDatabaseHolder(dataDir);
  if (holder)
    throw new BackupError(
      `The server (process ${holder}) is using the database in ${dataDir}. Stop it first, then restore.`,
    );
  const tar = readEmbeddedDump(file);
  const live = join(dataDir, 'pglite');
  const aside = `${live}.before-restore-${now.toISOString().replace(/[:.]/g, '-')}`;
  mkdirSync(dataDir, { recursive: true });
  const hadDatabase = existsSync(live);
  if (hadDatabase) renameSync(live, aside);
  try {
    const restored = await PGlite.create(live, {
      loadDataDir: new Blob([new Uint8Array(tar)], { type: 'application/x-tar' }),
    });
    await restored.close();
    // Opening it as the server does proves it starts, and brings an older backup's schema up to date.
    const database = await openDatabase({ kind: 'pglite', dataDir });
    await database.close();
  } catch (error) {
    rmSync(live, { recursive: true, force: true });
    if (hadDatabase) renameSync(aside, live);
    throw new BackupError(
      `The backup could not be restored (${error instanceof Error ? error.message : String(error)}); the database was left as it was.`,
    );
  }
  return [
    `Restored the embedded database in ${live} from ${file}.`,
    hadDatabase ? `The database it replaced is kept in ${aside} (delete it when you no longer need it).` : '',
  ]
    .filter(Boolean)
    .join('\n');
}

/** A refusal to print (exit code 1), not a crash. */
export class BackupError extends Error {}
