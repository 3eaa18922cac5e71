// The data export (the rules are stated in api-contract/closure.ts): one ZIP archive of everything the caller's
// account holds (its balances too, with what closing would end with the account), each part as a JSON file (exact
// values: decimals as strings, times in ISO 8601 UTC) and a CSV file written by the one CSV writer
// (api-contract/csv.ts: formula cells defused, exact decimals, UTC wall-clock times), and a README in the language of
// the request saying so and what every file and column holds.
// Built in memory with fflate, bounded by EXPORT_MAX_BYTES: the rows are read, written and compressed a batch at a
// time, and the export is refused as soon as the files written pass the bound, so an account of any size is never
// read further than that; at most EXPORTS_AT_ONCE are built at once in a process. The identity documents'
// pictures only when asked for.
// Secrets never leave: no password hash, token hash, two-factor secret, recovery code, passkey key, unrevealed blind
// box server seed or push subscription's keys is read.
import Big from 'big.js';
import { strToU8, Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { and, asc, eq, getTableColumns, inArray, sql, type InferSelectModel, type SQL } from 'drizzle-orm';
import type { AnyPgColumn, PgSelect, PgTable } from 'drizzle-orm/pg-core';
import type { Db, Executor } from '../db/connection.ts';
import {
  accountFreezes,
  bankCards,
  boxDraws,
  boxSeeds,
  certifications,
  checkIns,
  contractOrders,
  ledgerEntries,
  liquidityRecords,
  lockupOrders,
  loginHistory,
  notificationSettings,
  invitePermissions,
  optionOrders,
  passkeys,
  practiceAccounts,
  priceAlerts,
  pushSubscriptions,
  rechargeOrders,
  serviceConversations,
  serviceMessages,
  sessions,
  uploads,
  users,
  wallets,
  welfareClaims,
  withdrawOrders,
} from '../db/schema.ts';
import { EXPORT_MAX_BYTES, pointsEndingWithAccount } from '../../api-contract/closure.ts';
import { POINTS } from '../../api-contract/rewards.ts';
import { balancesEndingIn } from './closure-balances.ts';
import { balancesOf } from './ledger.ts';
import { pointsRule } from './points.ts';
import { practiceBalances } from './practice.ts';
import { BOM, csvLines, numberCell, textCell, wallClock } from '../../api-contract/csv.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { columnText, exportTexts } from '../../api-contract/export-texts.ts';
import type { MessageDescriptor } from '@lingui/core';
import { translator } from '../i18n.ts';
import type { Locale } from '../../api-contract/constants.ts';
import { everyMessageOf } from './messages.ts';
import { maskAddress } from './devices.ts';
import { Refusal } from './refusal.ts';
import { UPLOADS_PATH } from './uploads.ts';
import { idKey, keysetQuery, type KeysetOrder, type OrderKey } from './paged-query.ts';

type Cell = string | number | boolean | null | Date | object;
type Row = Record<string, Cell>;

/** A decimal string of 8 decimals, as every balance of the archive is written. */
const eight = (value: string) => new Big(value).toFixed(8);

/**
 * The `balances` part: each real balance of user `userId` at `now` (asset order; the practice account's virtual assets
 * left out, as on every page of money), available and frozen, and `ends_with_closure`, what closing the account at
 * `now` would end with it, not paid out: the amount closureEnding lists (too small to withdraw or sell), or the points
 * below the redemption minimum (pointsEndingWithAccount); '0.00000000' for none. Amounts as decimal strings of 8
 * decimals. Why: the customer's last archive before closing names what they held and what the closure takes, beside
 * the ledger that explains it.
 */
async function balancesWithClosure(db: Executor, userId: number, now: Date): Promise<Row[]> {
  const held = await balancesOf(db, userId);
  const ending = new Map((await balancesEndingIn(db, userId, held, now, false)).map((row) => [row.asset, row.amount]));
  const points = held.find((row) => row.asset === POINTS && new Big(row.frozen).eq(0));
  if (points && new Big(points.available).gt(0)) {
    const ended = pointsEndingWithAccount(points.available, (await pointsRule(db)).min_points);
    if (ended !== null) ending.set(POINTS, ended);
  }
  return held.map((row) => ({
    asset: row.asset,
    available: eight(row.available),
    frozen: eight(row.frozen),
    ends_with_closure: eight(ending.get(row.asset) ?? '0'),
  }));
}

/**
 * One part of the archive as it is written: every column it can have (in the CSV's order; the README describes each;
 * a row has no other) and, per column, whether it is a decimal (a number cell in the CSV).
 */
interface Part {
  name: PartName;
  columns: readonly string[];
  decimals: ReadonlySet<string>;
}

/** A table's column names (snake_case) in the schema's order, without the columns left out. */
const columnsOf = (table: PgTable, omit: readonly string[] = []) =>
  Object.values(getTableColumns(table))
    .map((column) => column.name)
    .filter((name) => !omit.includes(name));

/** The snake_case column names of a table's numeric columns (decimals), read from the schema. */
function decimalsOf(table: PgTable): Set<string> {
  return new Set(
    Object.values(getTableColumns(table))
      .filter((column) => column.columnType === 'PgNumeric')
      .map((column) => column.name),
  );
}

/** The keyset key of a table's whole-number column (its id, the ledger's seq), read from a row by its field. */
function columnKey(table: PgTable, column: AnyPgColumn): OrderKey<Record<string, unknown>> {
  const field = Object.entries(getTableColumns(table)).find(([, of]) => of === column)![0];
  return idKey(column, (row: Record<string, unknown>) => Number(row[field]));
}

/** A row as the database names its columns (snake_case), without the columns left out. */
function named(table: PgTable, row: Record<string, unknown>, omit: readonly string[] = []): Row {
  const out: Row = {};
  for (const [key, column] of Object.entries(getTableColumns(table)))
    if (!omit.includes(column.name)) out[column.name] = (row[key] ?? null) as Cell;
  return out;
}

const jsonValue = (value: Cell) => (value instanceof Date ? value.toISOString() : value);

/** A row of a part as the cells of its CSV line: times as UTC wall-clock text, decimals as numbers. */
function csvRow(part: Part, row: Row): string[] {
  // A row without a column another row of its part has (a station message has no picture) leaves the cell empty.
  const cell = (column: string, value: Cell | undefined): string => {
    if (value === null || value === undefined) return textCell('');
    if (value instanceof Date) return textCell(wallClock(value, 'UTC'));
    if (part.decimals.has(column) && typeof value === 'string') return numberCell(value, '.');
    if (typeof value === 'object') return textCell(JSON.stringify(value));
    return textCell(String(value));
  };
  return part.columns.map((column) => cell(column, row[column]));
}

/**
 * Rows read from the database per statement of a part (keyset pages of the part's order): what one export holds of
 * rows at a time beside the files written so far. 2,000 ledger entries are about 0.6 MB of JSON and CSV.
 */
const EXPORT_BATCH_ROWS = 2_000;

/**
 * The ZIP archive as its files are written, part by part, a batch of rows at a time, each batch compressed as it comes
 * (fflate's streaming Zip: only the compressed archive is held), with how many bytes the parts' files hold (with
 * `picturesBytes` counted in from the start when the pictures are asked for). README.txt comes first, its text last
 * (`end`), once every part is known. Each part is NAME.json (the rows as JSON.stringify(rows, null, 2) writes the
 * array, pieced together row by row) and NAME.csv (the BOM, the header of its columns, a line a row). Refuses
 * (refuseTooLarge) the moment the bytes written pass EXPORT_MAX_BYTES, before compressing them: past the bound no more
 * is read, so however many rows an account has, one export reads at most the bound plus one batch of them. Rows are
 * measured as written, so the bound is the files' own size: never an estimate. Every file is stamped `now`.
 */
class Archive {
  /** The bytes of the parts' files written so far. */
  private records = 0;
  private readonly picturesBytes: number;
  private readonly now: Date;
  private readonly chunks: Uint8Array[] = [];
  private readonly zip: Zip;
  private readonly readme: ZipDeflate;

  constructor(picturesBytes: number, now: Date) {
    this.picturesBytes = picturesBytes;
    this.now = now;
    this.zip = new Zip((error, chunk) => {
      if (error) throw error;
      this.chunks.push(chunk);
    });
    this.readme = this.deflated('README.txt');
  }

  /** A file of the archive, compressed as it is pushed. */
  private deflated(name: string): ZipDeflate {
    const file = new ZipDeflate(name, { level: 6 });
    file.mtime = this.now;
    this.zip.add(file);
    return file;
  }

  /** Writes one part: `write(rows)` adds a batch of rows to its two files; `end()` closes them. */
  part(part: Part) {
    const json = this.deflated(`${part.name}.json`);
    const csv = this.deflated(`${part.name}.csv`);
    let rows = 0;
    const add = (to: ZipDeflate, text: string, final = false) => {
      const bytes = strToU8(text);
      this.records += bytes.length;
      if (this.records + this.picturesBytes > EXPORT_MAX_BYTES) refuseTooLarge(this.records > EXPORT_MAX_BYTES);
      to.push(bytes, final);
    };
    add(csv, BOM + csvLines([part.columns.map(textCell)]));
    return {
      write: (batch: readonly Row[]) => {
        if (!batch.length) return;
        // Each element as JSON.stringify of the whole array with an indent of 2 writes it: its lines indented once
        // more.
        const elements = batch.map(
          (row) => `  ${JSON.stringify(row, (_key, value: Cell) => jsonValue(value), 2).replace(/\n/g, '\n  ')}`,
        );
        add(json, (rows ? ',\n' : '[\n') + elements.join(',\n'));
        add(csv, csvLines(batch.map((row) => csvRow(part, row))));
        rows += batch.length;
      },
      end: () => {
        add(json, rows ? '\n]' : '[]', true);
        add(csv, '', true);
      },
    };
  }

  /** A file stored as it is (a picture, compressed already). */
  stored(name: string, bytes: Uint8Array) {
    const file = new ZipPassThrough(name);
    file.mtime = this.now;
    this.zip.add(file);
    file.push(bytes, true);
  }

  /** The whole archive, README.txt's `readme` text written. */
  end(readme: string): Uint8Array {
    this.readme.push(strToU8(readme), true);
    this.zip.end();
    const out = new Uint8Array(this.chunks.reduce((sum, chunk) => sum + chunk.length, 0));
    let at = 0;
    for (const chunk of this.chunks) {
      out.set(chunk, at);
      at += chunk.length;
    }
    return out;
  }
}

/**
 * Every row of a list, a keyset page (keysetQuery) of EXPORT_BATCH_ROWS at a time, each page handed to `write` before
 * the next is read. `list(after)` builds the list's query as keysetQuery takes it.
 */
async function eachPage<Q extends PgSelect, R extends Q['_']['result'][number]>(
  list: (after: SQL | undefined) => Q,
  order: KeysetOrder<R>,
  write: (rows: R[]) => void,
): Promise<void> {
  let cursor = '';
  do {
    const page = await keysetQuery(list, order, { cursor }, EXPORT_BATCH_ROWS);
    write(page.lists);
    cursor = page.next ?? '';
  } while (cursor);
}

/** The exports being built in this process now. */
let exportsBuilding = 0;

/**
 * Exports built at once in a process; one more is refused (exportBusy: try again in a minute) rather than queued, as
 * the customer can ask again and a queue would hold the request open. Why 2: each writes and compresses up to
 * EXPORT_MAX_BYTES of files (the process grew by about 90 MB for one at the bound, measured, most of it garbage of
 * the batches not yet collected), for seconds of a core, and holds one pooled connection for its transaction, while
 * the process serves every other call.
 */
export const EXPORTS_AT_ONCE = 2;

/**
 * README.txt in the customer's language: when it was made, the two files of each part, that every time is in UTC and
 * how amounts and formula-like texts are written, then each part's files with every column it can have and what that
 * column means (api-contract/export-texts.ts), and whether the document pictures are in. Lines end in CRLF, as the
 * text editors of every system read them.
 */
function readme(at: Date, documents: boolean, parts: readonly Part[], lang: Locale): string {
  const t = translator(lang);
  const lines = [
    t(exportTexts['x.readme.title'], { 0: wallClock(at, 'UTC') }),
    '',
    t(exportTexts['x.readme.files']),
    t(exportTexts['x.readme.times']),
    t(exportTexts['x.readme.amounts']),
    '',
    t(exportTexts['x.readme.columns']),
  ];
  for (const part of parts) {
    const about = (exportTexts as Record<string, MessageDescriptor>)[`x.part.${part.name}`];
    lines.push('', `${part.name}.csv, ${part.name}.json: ${about ? t(about) : ''}`);
    for (const column of part.columns) {
      const text = columnText(part.name, column);
      lines.push(`  ${column}: ${text ? t(text) : ''}`);
    }
  }
  lines.push('', t(documents ? exportTexts['x.readme.documents'] : exportTexts['x.readme.noDocuments']), '');
  return lines.join('\r\n');
}

const EXTENSIONS: Record<string, string> = {
  'image/jpeg': 'jpg',
  'image/png': 'png',
  'image/gif': 'gif',
  'image/webp': 'webp',
};

/**
 * The caller's data as a ZIP archive (bytes): README.txt, and for each part NAME.json and NAME.csv (see README);
 * with `documents`, the certification pictures under documents/. Reads only rows of `userId`, all in one read-only
 * repeatable-read transaction (one snapshot: the balances agree with the ledger, the orders with their entries, however
 * the account moves meanwhile); the files are written and compressed as the rows are read, the pictures and the README
 * after the transaction ends.
 * Station messages are in `lang` (the language the customer reads them in the app; English where a message has no
 * version in it).
 * @throws Refusal exportTooLarge (with `documents`) or exportRecordsTooLarge as soon as the files written pass
 * EXPORT_MAX_BYTES (the pictures are counted before any row is read, and read only when all fits); exportBusy while
 * EXPORTS_AT_ONCE exports are being built in this process.
 */
export async function exportArchive(
  db: Db,
  userId: number,
  documents: boolean,
  now: Date,
  lang: Locale,
): Promise<Uint8Array> {
  if (exportsBuilding >= EXPORTS_AT_ONCE) throw new Refusal(serverTexts.exportBusy.id);
  exportsBuilding++;
  try {
    const { archive, parts, sides } = await db.transaction((tx) => partsOf(tx, userId, documents, now, lang), {
      isolationLevel: 'repeatable read',
      accessMode: 'read only',
    });
    if (documents) {
      // An upload's bytes never change: read after the snapshot, they are what it held.
      const pictures = new Map(
        (
          await db
            .select({ id: uploads.id, mime: uploads.mime, bytes: uploads.bytes })
            .from(uploads)
            .where(mineOf(userId, sides))
        ).map((row) => [row.id, row]),
      );
      for (const side of sides) {
        const picture = pictures.get(side.id);
        // Pictures are compressed already: stored as they are.
        if (picture)
          archive.stored(
            `documents/${side.certification}-${side.side}.${EXTENSIONS[picture.mime] ?? 'bin'}`,
            new Uint8Array(picture.bytes),
          );
      }
    }
    return archive.end(readme(now, documents, parts, lang));
  } finally {
    exportsBuilding--;
  }
}

/** The uploaded sides of the certifications' pictures (a picture kept elsewhere is left out). */
const picturesOf = (rows: InferSelectModel<typeof certifications>[]) =>
  rows.flatMap((row) =>
    Object.entries(row.images)
      .filter(([, url]) => url.startsWith(UPLOADS_PATH))
      .map(([side, url]) => ({ certification: row.id, side, id: url.slice(UPLOADS_PATH.length) })),
  );

/** The caller's own uploads among those `sides` name. */
const mineOf = (userId: number, sides: { id: string }[]) => {
  const ids = [...new Set(sides.map((side) => side.id))];
  return and(eq(uploads.userId, userId), inArray(uploads.id, ids.length ? ids : ['']));
};

/**
 * Every part read in `db` (the export's transaction) and written into the archive (Archive, which refuses
 * as soon as they pass the bound), with the parts for the README and the certifications' picture sides to read after
 * (none without `documents`). The certifications and their pictures' size are read first, so that size counts from
 * the first row.
 */
async function partsOf(db: Executor, userId: number, documents: boolean, now: Date, lang: Locale) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new Error(`user ${userId} of a live session does not exist`);
  const certificationRows = await db
    .select()
    .from(certifications)
    .where(eq(certifications.userId, userId))
    .orderBy(asc(certifications.id));
  const sides = documents ? picturesOf(certificationRows) : [];
  const [{ bytes } = { bytes: 0 }] = documents
    ? await db
        .select({ bytes: sql<number>`coalesce(sum(octet_length(${uploads.bytes})), 0)::float8` })
        .from(uploads)
        .where(mineOf(userId, sides))
    : [];
  const archive = new Archive(Number(bytes), now);
  const parts: Part[] = [];
  /** Writes a part whose rows are all at hand. */
  const whole = (part: Part, rows: readonly Row[]) => {
    parts.push(part);
    const writer = archive.part(part);
    writer.write(rows);
    writer.end();
  };
  /**
   * Writes a part whose rows are read in keyset pages of `key` (ascending, a whole number unique to the caller's
   * rows): `list(after)` builds the query of the caller's rows, `toRow` names a row's cells as the part's columns.
   */
  const paged = async <Q extends PgSelect, R extends Q['_']['result'][number]>(
    part: Part,
    list: (after: SQL | undefined) => Q,
    key: OrderKey<R>,
    toRow: (row: R) => Row,
  ) => {
    parts.push(part);
    const writer = archive.part(part);
    await eachPage(list, { keys: [key], direction: 'asc' }, (rows) => writer.write(rows.map(toRow)));
    writer.end();
  };
  /**
   * Writes a table's part: the caller's rows, every column but `omit` and those every part leaves out, in keyset pages
   * of `key` (by default the table's id; the ledger's seq; a table without an id names its own).
   */
  const table = async <T extends PgTable & { userId: AnyPgColumn; id?: AnyPgColumn }>(
    name: PartName,
    of: T,
    key: OrderKey<Record<string, unknown>> = columnKey(of, of.id!),
    omit: readonly string[] = [],
  ) => {
    // A receipt picture's digest (proof_digest) is the platform's check that one receipt backs one recharge: the
    // picture's address is the customer's record.
    const omitted = ['user_id', 'proof_digest', ...omit];
    await paged(
      { name, columns: columnsOf(of, omitted), decimals: decimalsOf(of) },
      (after) =>
        db
          .select()
          .from(of as PgTable & { userId: AnyPgColumn })
          .where(and(eq(of.userId, userId), after))
          .$dynamic(),
      key,
      (row) => named(of, row, omitted),
    );
  };
  /**
   * Writes a table's part whose caller's rows are few enough to read whole (one a customer, one a reward task, one an
   * asset), every column but user_id, in `order`.
   */
  const owned = async <T extends PgTable & { userId: AnyPgColumn }>(
    name: PartName,
    of: T,
    order: AnyPgColumn = of.userId,
  ) => {
    const omit = ['user_id'];
    const rows = await db
      .select()
      .from(of as PgTable & { userId: AnyPgColumn })
      .where(eq(of.userId, userId))
      .orderBy(asc(order));
    whole(
      { name, columns: columnsOf(of, omit), decimals: decimalsOf(of) },
      rows.map((row) => named(of, row, omit)),
    );
  };
  const profileOmits = ['id', 'password_hash', 'paypass_hash', 'anti_phishing_code', 'closed_at'];
  whole({ name: 'profile', columns: columnsOf(users, profileOmits), decimals: decimalsOf(users) }, [
    named(users, user, profileOmits),
  ]);
  const balanceDecimals = ['available', 'frozen', 'ends_with_closure'];
  whole(
    { name: 'balances', columns: ['asset', ...balanceDecimals], decimals: new Set(balanceDecimals) },
    await balancesWithClosure(db, userId, now),
  );
  await owned('practice_account', practiceAccounts);
  const practiceDecimals = ['available', 'frozen'];
  // A practice account's assets are one a coin it traded: read whole.
  whole(
    { name: 'practice_balances', columns: ['asset', ...practiceDecimals], decimals: new Set(practiceDecimals) },
    (await practiceBalances(db, userId, false)).map((row) => ({
      asset: row.asset,
      available: eight(row.available),
      frozen: eight(row.frozen),
    })),
  );
  await table('ledger', ledgerEntries, columnKey(ledgerEntries, ledgerEntries.seq));
  await table('options', optionOrders);
  await table('contracts', contractOrders);
  await table('recharges', rechargeOrders);
  await table('withdrawals', withdrawOrders);
  await table('liquidity', liquidityRecords);
  await table('lockups', lockupOrders);
  const messagesPart: Part = {
    name: 'messages',
    columns: ['kind', 'from', 'to', 'id', 'at', 'title', 'body', 'read_at', 'picture'],
    decimals: new Set<string>(),
  };
  parts.push(messagesPart);
  const messages = archive.part(messagesPart);
  // The station messages are the platform's, to the customer or to everyone: read whole (everyMessageOf).
  messages.write(
    (await everyMessageOf(db, userId, lang)).map(({ broadcast, readAt, ...row }) => ({
      kind: 'station',
      from: 'platform',
      to: broadcast ? 'everyone' : 'you',
      ...row,
      read_at: readAt,
    })),
  );
  const conversation = db
    .select({ id: serviceConversations.id })
    .from(serviceConversations)
    .where(eq(serviceConversations.userId, userId));
  await eachPage(
    (after) =>
      db
        .select({
          id: serviceMessages.id,
          at: serviceMessages.createdAt,
          author: serviceMessages.author,
          body: serviceMessages.body,
          picture: serviceMessages.picture,
        })
        .from(serviceMessages)
        .where(and(inArray(serviceMessages.conversationId, conversation), after))
        .$dynamic(),
    { keys: [idKey(serviceMessages.id, (row: { id: number }) => row.id)], direction: 'asc' },
    (rows) =>
      messages.write(
        rows.map(({ author, picture, ...row }) => ({ kind: 'service', from: author, title: '', ...row, picture })),
      ),
  );
  messages.end();
  await paged(
    {
      name: 'sessions',
      columns: ['id', 'device', 'address', 'user_agent', 'signed_in_at', 'last_seen_at', 'ended_at'],
      decimals: new Set<string>(),
    },
    (after) =>
      db
        .select()
        .from(sessions)
        .where(and(eq(sessions.userId, userId), after))
        .$dynamic(),
    idKey(sessions.id, (row: { id: number }) => row.id),
    (row) => ({
      id: row.id,
      device: row.device,
      address: maskAddress(row.ip),
      user_agent: row.userAgent,
      signed_in_at: row.createdAt,
      last_seen_at: row.lastSeenAt,
      ended_at: row.revokedAt,
    }),
  );
  // A passkey's public key, signature counter and transports are the authenticator's, not the customer's to read; its
  // name and dates are (as Settings shows them). At most PASSKEY_LIMIT a customer: read whole.
  whole(
    {
      name: 'passkeys',
      columns: ['name', 'device_type', 'backed_up', 'created_at', 'last_used_at'],
      decimals: new Set<string>(),
    },
    await db
      .select({
        name: passkeys.name,
        device_type: passkeys.deviceType,
        backed_up: passkeys.backedUp,
        created_at: passkeys.createdAt,
        last_used_at: passkeys.lastUsedAt,
      })
      .from(passkeys)
      .where(eq(passkeys.userId, userId))
      .orderBy(asc(passkeys.createdAt), asc(passkeys.id)),
  );
  const certificationOmits = ['user_id'];
  whole(
    {
      name: 'certifications',
      columns: columnsOf(certifications, certificationOmits),
      decimals: decimalsOf(certifications),
    },
    certificationRows.map((row) => named(certifications, row, certificationOmits)),
  );
  await owned('account_freeze', accountFreezes);
  await table('bank_cards', bankCards);
  await table('wallets', wallets);
  await table('login_history', loginHistory);
  // One check-in a day: the day (YYYY-MM-DD) as the number YYYYMMDD is the key.
  await table(
    'check_ins',
    checkIns,
    idKey(sql`replace(${checkIns.day}, '-', '')::bigint`, (row: Record<string, unknown>) =>
      Number(String(row.day).replaceAll('-', '')),
    ),
  );
  // A seed pair's server seed is the customer's once revealed (it proves the draws made with it); until then only its
  // digest is, as the blind box page shows it: an unrevealed server seed is not even read.
  await paged(
    {
      name: 'box_seeds',
      columns: ['id', 'server_hash', 'server_seed', 'client_seed', 'next_nonce', 'created_at', 'revealed_at'],
      decimals: new Set<string>(),
    },
    (after) =>
      db
        .select({
          id: boxSeeds.id,
          server_hash: boxSeeds.serverHash,
          server_seed: sql<
            string | null
          >`case when ${boxSeeds.revealedAt} is null then null else ${boxSeeds.serverSeed} end`,
          client_seed: boxSeeds.clientSeed,
          next_nonce: boxSeeds.nextNonce,
          created_at: boxSeeds.createdAt,
          revealed_at: boxSeeds.revealedAt,
        })
        .from(boxSeeds)
        .where(and(eq(boxSeeds.userId, userId), after))
        .$dynamic(),
    idKey(boxSeeds.id, (row: { id: number }) => row.id),
    (row) => row,
  );
  await table('box_draws', boxDraws);
  // One claim a reward task, and the tasks are the platform's short list.
  await owned('welfare_claims', welfareClaims, welfareClaims.taskCode);
  // The operator's grant of the invitation permission (empty when none: a primary certification grants it unstored).
  await owned('invite_permission', invitePermissions);
  // checked_through is the alerts job's own mark of how far it has weighed a new alert, nothing the customer set.
  await table('price_alerts', priceAlerts, undefined, ['checked_through']);
  // A subscription's endpoint address is a capability (whoever has it can push to the browser) and its keys encrypt
  // the pushes: only the push service's host is the customer's to read, and the keys are not even read.
  await paged(
    {
      name: 'push_subscriptions',
      columns: ['id', 'endpoint_host', 'language', 'device', 'created_at'],
      decimals: new Set<string>(),
    },
    (after) =>
      db
        .select({
          id: pushSubscriptions.id,
          endpoint: pushSubscriptions.endpoint,
          language: pushSubscriptions.language,
          device: pushSubscriptions.device,
          createdAt: pushSubscriptions.createdAt,
        })
        .from(pushSubscriptions)
        .where(and(eq(pushSubscriptions.userId, userId), after))
        .$dynamic(),
    idKey(pushSubscriptions.id, (row: { id: number }) => row.id),
    (row) => ({
      id: row.id,
      endpoint_host: hostOf(row.endpoint),
      language: row.language,
      device: row.device,
      created_at: row.createdAt,
    }),
  );
  await owned('notification_settings', notificationSettings);
  return { archive, parts, sides };
}

/**
 * Refuses the export as too large: `records` when the parts' files alone pass EXPORT_MAX_BYTES (no choice of the
 * customer makes it fit), else as the pictures make it so (it fits without them).
 */
function refuseTooLarge(records: boolean): never {
  const text = records ? serverTexts.exportRecordsTooLarge : serverTexts.exportTooLarge;
  throw new Refusal(text.id, { 0: EXPORT_MAX_BYTES / 1024 / 1024 });
}

/**
 * The parts of the archive, each as NAME.json and NAME.csv, in the order they are written (the README's and the
 * archive's): a part's name is one of these, and the archive holds every one of them.
 */
export const EXPORT_PARTS = [
  'profile',
  'balances',
  'practice_account',
  'practice_balances',
  'ledger',
  'options',
  'contracts',
  'recharges',
  'withdrawals',
  'liquidity',
  'lockups',
  'messages',
  'sessions',
  'passkeys',
  'certifications',
  'account_freeze',
  'bank_cards',
  'wallets',
  'login_history',
  'check_ins',
  'box_seeds',
  'box_draws',
  'welfare_claims',
  'invite_permission',
  'price_alerts',
  'push_subscriptions',
  'notification_settings',
] as const;

/** The name of a part of the archive (EXPORT_PARTS). */
type PartName = (typeof EXPORT_PARTS)[number];

/** A push subscription's endpoint's host (the push service's), '' for an endpoint that is no URL. */
function hostOf(endpoint: string): string {
  try {
    return new URL(endpoint).host;
  } catch {
    return '';
  }
}
