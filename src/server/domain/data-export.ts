// The data export (the rules are stated in api-contract/closure.ts): one ZIP archive of everything the caller's
// account holds (its balances too, with what closing would end with the account), each part as a JSON file (exact
// values: decimals as strings, times in ISO 8601 UTC) and a CSV file written by the one CSV writer
// (api-contract/csv.ts: formula cells defused, exact decimals, UTC wall-clock times), and a README in the language of
// the request saying so and what every file and column holds.
// Built in memory with fflate, bounded by EXPORT_MAX_BYTES; the identity documents' pictures only when asked for.
// Secrets never leave: no password hash, token hash, two-factor secret, recovery code or passkey key is read.
import Big from 'big.js';
import { strToU8, zipSync, type Zippable } from 'fflate';
import { and, asc, eq, getTableColumns, inArray, sql, type InferSelectModel } from 'drizzle-orm';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { Db, Executor } from '../db/connection.ts';
import {
  certifications,
  contractOrders,
  ledgerEntries,
  liquidityRecords,
  lockupOrders,
  optionOrders,
  rechargeOrders,
  serviceConversations,
  serviceMessages,
  sessions,
  uploads,
  users,
  withdrawOrders,
} from '../db/schema.ts';
import { EXPORT_MAX_BYTES, pointsEndingWithAccount } from '../../api-contract/closure.ts';
import { POINTS } from '../../api-contract/rewards.ts';
import { balancesEndingIn } from './closure-balances.ts';
import { balancesOf } from './ledger.ts';
import { pointsRule } from './points.ts';
import { csvFile, numberCell, textCell, wallClock } from '../../api-contract/csv.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';
import { columnText, exportTexts } from '../../api-contract/export-texts.ts';
import type { MessageDescriptor } from '@lingui/core';
import { translator } from '../i18n.ts';
import type { Locale } from '../../api-contract/constants.ts';
import { everyMessageOf } from './messages.ts';
import { maskAddress } from './devices.ts';
import { Refusal } from './refusal.ts';
import { UPLOADS_PATH } from './uploads.ts';

type Cell = string | number | boolean | null | Date | object;
type Row = Record<string, Cell>;

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
  const eight = (value: string) => new Big(value).toFixed(8);
  return held.map((row) => ({
    asset: row.asset,
    available: eight(row.available),
    frozen: eight(row.frozen),
    ends_with_closure: eight(ending.get(row.asset) ?? '0'),
  }));
}

/**
 * One part of the archive: its rows, every column it can have (in the CSV's order; the README describes each) and,
 * per column, whether it is a decimal (a number cell in the CSV).
 */
interface Part {
  name: string;
  rows: Row[];
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

/** A row as the database names its columns (snake_case), without the columns left out. */
function named(table: PgTable, row: Record<string, unknown>, omit: readonly string[] = []): Row {
  const out: Row = {};
  for (const [key, column] of Object.entries(getTableColumns(table)))
    if (!omit.includes(column.name)) out[column.name] = (row[key] ?? null) as Cell;
  return out;
}

const jsonValue = (value: Cell) => (value instanceof Date ? value.toISOString() : value);

/** A part's CSV: a header of its column names, then its rows; times as UTC wall-clock text, decimals as numbers. */
function partCsv(part: Part): string {
  const columns = [...new Set([...part.columns, ...part.rows.flatMap((row) => Object.keys(row))])];
  // A row without a column another row of its part has (a station message has no picture) leaves the cell empty.
  const cell = (column: string, value: Cell | undefined): string => {
    if (value === null || value === undefined) return textCell('');
    if (value instanceof Date) return textCell(wallClock(value, 'UTC'));
    if (part.decimals.has(column) && typeof value === 'string') return numberCell(value, '.');
    if (typeof value === 'object') return textCell(JSON.stringify(value));
    return textCell(String(value));
  };
  return csvFile([
    columns.map(textCell),
    ...part.rows.map((row) => columns.map((column) => cell(column, row[column]))),
  ]);
}

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
 * the account moves meanwhile); the files are written after it ends. Station messages are in `lang` (the language the
 * customer reads them in the app; English where a message has no version in it). Refuses with `exportTooLarge` when
 * the archive would pass EXPORT_MAX_BYTES (the pictures are counted before any is read).
 */
export async function exportArchive(
  db: Db,
  userId: number,
  documents: boolean,
  now: Date,
  lang: Locale,
): Promise<Uint8Array> {
  const { parts, certificationRows, picturesBytes } = await db.transaction(
    (tx) => partsOf(tx, userId, documents, now, lang),
    { isolationLevel: 'repeatable read', accessMode: 'read only' },
  );
  const files: Zippable = { 'README.txt': strToU8(readme(now, documents, parts, lang)) };
  let size = 0;
  for (const part of parts) {
    const { name, rows } = part;
    const json = strToU8(JSON.stringify(rows, (_key, value: Cell) => jsonValue(value), 2));
    const csv = strToU8(partCsv(part));
    files[`${name}.json`] = json;
    files[`${name}.csv`] = csv;
    size += json.length + csv.length;
  }
  if (documents) {
    if (size + picturesBytes > EXPORT_MAX_BYTES) refuseTooLarge();
    const sides = picturesOf(certificationRows);
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
        files[`documents/${side.certification}-${side.side}.${EXTENSIONS[picture.mime] ?? 'bin'}`] = [
          new Uint8Array(picture.bytes),
          { level: 0 },
        ];
    }
  }
  if (size > EXPORT_MAX_BYTES) refuseTooLarge();
  return zipSync(files, { level: 6, mtime: now });
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

/** Every part's rows read in `db` (the export's transaction), the certifications, and their pictures' bytes (0 without
 * `documents`). */
async function partsOf(db: Executor, userId: number, documents: boolean, now: Date, lang: Locale) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw new Error(`user ${userId} of a live session does not exist`);
  const rowsOf = <T extends PgTable>(table: T, rows: InferSelectModel<T>[], omit: readonly string[] = []) =>
    rows.map((row) => named(table, row as Record<string, unknown>, ['user_id', ...omit]));
  const part = <T extends PgTable>(
    name: string,
    table: T,
    rows: InferSelectModel<T>[],
    omit: readonly string[] = [],
  ) => ({
    name,
    rows: rowsOf(table, rows, omit),
    columns: columnsOf(table, ['user_id', ...omit]),
    decimals: decimalsOf(table),
  });
  const profileOmits = ['id', 'password_hash', 'paypass_hash', 'anti_phishing_code', 'closed_at'];
  const profile = named(users, user, profileOmits);
  const conversation = db
    .select({ id: serviceConversations.id })
    .from(serviceConversations)
    .where(eq(serviceConversations.userId, userId));
  const certificationRows = await db
    .select()
    .from(certifications)
    .where(eq(certifications.userId, userId))
    .orderBy(asc(certifications.id));
  const parts: Part[] = [
    { name: 'profile', rows: [profile], columns: columnsOf(users, profileOmits), decimals: decimalsOf(users) },
    {
      name: 'balances',
      rows: await balancesWithClosure(db, userId, now),
      columns: ['asset', 'available', 'frozen', 'ends_with_closure'],
      decimals: new Set(['available', 'frozen', 'ends_with_closure']),
    },
    part(
      'ledger',
      ledgerEntries,
      await db.select().from(ledgerEntries).where(eq(ledgerEntries.userId, userId)).orderBy(asc(ledgerEntries.seq)),
    ),
    part(
      'options',
      optionOrders,
      await db.select().from(optionOrders).where(eq(optionOrders.userId, userId)).orderBy(asc(optionOrders.id)),
    ),
    part(
      'contracts',
      contractOrders,
      await db.select().from(contractOrders).where(eq(contractOrders.userId, userId)).orderBy(asc(contractOrders.id)),
    ),
    part(
      'recharges',
      rechargeOrders,
      await db.select().from(rechargeOrders).where(eq(rechargeOrders.userId, userId)).orderBy(asc(rechargeOrders.id)),
    ),
    part(
      'withdrawals',
      withdrawOrders,
      await db.select().from(withdrawOrders).where(eq(withdrawOrders.userId, userId)).orderBy(asc(withdrawOrders.id)),
    ),
    part(
      'liquidity',
      liquidityRecords,
      await db
        .select()
        .from(liquidityRecords)
        .where(eq(liquidityRecords.userId, userId))
        .orderBy(asc(liquidityRecords.id)),
    ),
    part(
      'lockups',
      lockupOrders,
      await db.select().from(lockupOrders).where(eq(lockupOrders.userId, userId)).orderBy(asc(lockupOrders.id)),
    ),
    {
      name: 'messages',
      rows: [
        ...(await everyMessageOf(db, userId, lang)).map(({ broadcast, readAt, ...row }) => ({
          kind: 'station',
          from: 'platform',
          to: broadcast ? 'everyone' : 'you',
          ...row,
          read_at: readAt,
        })),
        ...(
          await db
            .select({
              id: serviceMessages.id,
              at: serviceMessages.createdAt,
              author: serviceMessages.author,
              body: serviceMessages.body,
              picture: serviceMessages.picture,
            })
            .from(serviceMessages)
            .where(inArray(serviceMessages.conversationId, conversation))
            .orderBy(asc(serviceMessages.id))
        ).map(({ author, picture, ...row }) => ({ kind: 'service', from: author, title: '', ...row, picture })),
      ],
      columns: ['kind', 'from', 'to', 'id', 'at', 'title', 'body', 'read_at', 'picture'],
      decimals: new Set(),
    },
    {
      name: 'sessions',
      rows: (await db.select().from(sessions).where(eq(sessions.userId, userId)).orderBy(asc(sessions.id))).map(
        (row) => ({
          id: row.id,
          device: row.device,
          address: maskAddress(row.ip),
          user_agent: row.userAgent,
          signed_in_at: row.createdAt,
          last_seen_at: row.lastSeenAt,
          ended_at: row.revokedAt,
        }),
      ),
      columns: ['id', 'device', 'address', 'user_agent', 'signed_in_at', 'last_seen_at', 'ended_at'],
      decimals: new Set(),
    },
    part('certifications', certifications, certificationRows),
  ];
  const [{ bytes } = { bytes: 0 }] = documents
    ? await db
        .select({ bytes: sql<number>`coalesce(sum(octet_length(${uploads.bytes})), 0)::float8` })
        .from(uploads)
        .where(mineOf(userId, picturesOf(certificationRows)))
    : [];
  return { parts, certificationRows, picturesBytes: Number(bytes) };
}

function refuseTooLarge(): never {
  throw new Refusal(serverTexts.exportTooLarge.id, { 0: EXPORT_MAX_BYTES / 1024 / 1024 });
}

/** The parts of the archive, each as NAME.json and NAME.csv, in the README's order. */
export const EXPORT_PARTS = [
  'profile',
  'ledger',
  'options',
  'contracts',
  'recharges',
  'withdrawals',
  'liquidity',
  'lockups',
  'messages',
  'sessions',
  'certifications',
] as const;
