// Uploaded pictures are referred to by the URL /users/upload answered; a call may only use the
// caller's own (an avatar, a transfer receipt, certification documents, a picture sent to customer service). Every
// picture is private: served to its owner's token, a reviewer's console session and the operator command only —
// avatars too. An avatar is a copy made when it is set (the column `public` marks such a copy: once served to anyone,
// now to no one more than any picture), which no document or receipt may name; a picture already sent as a document,
// a receipt or to customer service cannot become the avatar.
// An account keeps at most UPLOAD_MAX_COUNT pictures (52) and UPLOAD_ACCOUNT_MAX_BYTES at a time;
// a picture nothing refers to is deleted UNUSED_UPLOAD_GRACE_MS after its upload (the bytes live
// in the row: deleting it deletes the file), which frees its place.
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, sql, type SQL } from 'drizzle-orm';
import { rowsOf, type Executor, type Tx } from '../db/connection.ts';
import { uploads, users } from '../db/schema.ts';
import { Refusal } from './refusal.ts';
import { UPLOAD_MAX_COUNT } from '../../api-contract/constants.ts';
import { texts } from '../../api-contract/texts.ts';
import { serverTexts } from '../../api-contract/server-texts.ts';

export const UPLOADS_PATH = '/api/uploads/';
/** The id part of an upload's URL, as /users/upload makes it (the API contract's UPLOAD_URL). */
export const UPLOAD_ID = /^[A-Za-z0-9_-]{10,64}$/;
/** Ours: what the pictures of one account weigh at most, together (20 at the 5 MB maximum; the app sends ≤ 1600 px
 * JPEGs of well under 1 MB). */
export const UPLOAD_ACCOUNT_MAX_BYTES = 100 * 1024 * 1024;
/** A picture nothing refers to is kept this long after its upload (the customer is still filling the form), then
 * deleted. */
export const UNUSED_UPLOAD_GRACE_MS = 24 * 3600_000;

const MB = 1024 * 1024;
const idOf = (url: string) => url.slice(UPLOADS_PATH.length);
const newId = () => randomBytes(18).toString('base64url');

/**
 * Whether the upload of alias `u` is named by its owner's avatar, a recharge's transfer receipt or
 * a certification's documents: every row that can refer to a picture (only the owner's own can).
 */
const referredTo = sql`(
  exists (select 1 from users x where x.id = u.user_id and x.avatar = ${UPLOADS_PATH} || u.id)
  or exists (select 1 from recharge_orders r where r.user_id = u.user_id and r.proof = ${UPLOADS_PATH} || u.id)
  or exists (select 1 from certifications c cross join jsonb_each_text(c.images) e where c.user_id = u.user_id and e.value = ${UPLOADS_PATH} || u.id)
  or exists (select 1 from service_messages m join service_conversations sc on sc.id = m.conversation_id where sc.user_id = u.user_id and m.picture = ${UPLOADS_PATH} || u.id))`;

/**
 * Locks the account (two uploads at once are counted one after the other), then refuses when one
 * more picture of `bytes` would pass the account's bounds. Pictures kept as the record of a
 * reviewed recharge or certification are not counted: the customer cannot remove them, and only
 * an operator's review makes more of them. Nor are pictures sent to customer service, which the
 * conversation keeps (their own bound: CHAT_PICTURES_PER_DAY).
 */
async function refuseOverBounds(tx: Tx, userId: number, bytes: number): Promise<void> {
  await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('update');
  const [held] = rowsOf<{ n: number | string; bytes: number | string | bigint }>(
    await tx.execute(sql`
      select count(*)::int as n, coalesce(sum(octet_length(u.bytes)), 0)::bigint as bytes
      from uploads u
      where u.user_id = ${userId}
        and not exists (select 1 from recharge_orders r where r.user_id = u.user_id and r.status <> 'pending' and r.proof = ${UPLOADS_PATH} || u.id)
        and not exists (select 1 from certifications c cross join jsonb_each_text(c.images) e
                        where c.user_id = u.user_id and c.status <> 'review' and e.value = ${UPLOADS_PATH} || u.id)
        and not exists (select 1 from service_messages m join service_conversations sc on sc.id = m.conversation_id
                        where sc.user_id = u.user_id and m.picture = ${UPLOADS_PATH} || u.id)`),
  );
  if (Number(held?.n ?? 0) + 1 > UPLOAD_MAX_COUNT || Number(held?.bytes ?? 0) + bytes > UPLOAD_ACCOUNT_MAX_BYTES) {
    throw new Refusal(texts.uploadLimit.id, {
      0: UPLOAD_MAX_COUNT,
      1: UPLOAD_ACCOUNT_MAX_BYTES / MB,
      2: UNUSED_UPLOAD_GRACE_MS / 3600_000,
    });
  }
}

/**
 * Keeps a picture `userId` uploaded at `now`, private to them; answers the URL it is referred to by.
 * Refused past the account's bounds (its own unused pictures past their grace are deleted first).
 */
export async function keepUpload(
  tx: Tx,
  userId: number,
  picture: { mime: string; bytes: Buffer },
  now: Date,
): Promise<string> {
  await removeUnusedUploads(tx, now, { userId });
  await refuseOverBounds(tx, userId, picture.bytes.length);
  const id = newId();
  await tx.insert(uploads).values({ id, userId, mime: picture.mime, bytes: picture.bytes, createdAt: now });
  return `${UPLOADS_PATH}${id}`;
}

/**
 * SHA-256 of the bytes of the picture at `url` (one the caller checked exists, e.g. with ownsUploads): 32 bytes. What
 * makes two uploads of one file the same picture.
 */
export async function uploadDigest(tx: Executor, url: string): Promise<Uint8Array> {
  const [row] = await tx
    .select({ digest: sql<Uint8Array>`sha256(${uploads.bytes})` })
    .from(uploads)
    .where(eq(uploads.id, idOf(url)));
  if (!row) throw new Error(`no picture at ${url}`);
  return new Uint8Array(row.digest);
}

/**
 * Whether two of `urls` name one picture: the same upload twice, or two uploads of the same bytes (by their SHA-256, as
 * uploadDigest compares them). A URL that names no upload is left out of the comparison.
 */
export async function holdsOnePictureTwice(tx: Executor, urls: readonly string[]): Promise<boolean> {
  const ids = urls.map(idOf);
  if (new Set(ids).size < ids.length) return true;
  if (!ids.length) return false;
  const [row] = await tx
    .select({ found: sql<number>`count(*)::int`, pictures: sql<number>`count(distinct sha256(${uploads.bytes}))::int` })
    .from(uploads)
    .where(inArray(uploads.id, ids));
  return Number(row?.pictures ?? 0) < Number(row?.found ?? 0);
}

/**
 * Whether every URL names a private picture `userId` uploaded (a document or a receipt may not be an
 * avatar's public copy). The pictures stay locked to the end of the transaction: the removal of unused
 * pictures cannot take one this call is about to refer to.
 */
export async function ownsUploads(tx: Tx, userId: number, urls: readonly string[]): Promise<boolean> {
  const ids = [...new Set(urls.map(idOf))];
  if (!ids.length) return true;
  const own = await tx
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(inArray(uploads.id, ids), eq(uploads.userId, userId), eq(uploads.isPublic, false)))
    .for('share');
  return own.length === ids.length;
}

/** Whether the upload of alias `u` is a certification's document, a recharge's receipt or a picture sent to customer
 * service: what the avatar may not show. */
const sentAsDocument = sql`(
  exists (select 1 from recharge_orders r where r.user_id = u.user_id and r.proof = ${UPLOADS_PATH} || u.id)
  or exists (select 1 from certifications c cross join jsonb_each_text(c.images) e where c.user_id = u.user_id and e.value = ${UPLOADS_PATH} || u.id)
  or exists (select 1 from service_messages m join service_conversations sc on sc.id = m.conversation_id where sc.user_id = u.user_id and m.picture = ${UPLOADS_PATH} || u.id))`;

/**
 * The picture to show as `userId`'s avatar, from their own upload at `url`: a copy (marked `public`, served to the
 * owner and reviewers only, like any picture), so a document or a receipt can never name it. Their previous avatar
 * copy is deleted. Null, and nothing changed, when the URL names no picture of theirs; refused when the picture was
 * sent as a document, a receipt or to customer service, and past the account's bounds.
 */
export async function avatarCopy(tx: Tx, userId: number, url: string): Promise<string | null> {
  const [source] = await tx
    .select()
    .from(uploads)
    .where(and(eq(uploads.id, idOf(url)), eq(uploads.userId, userId)))
    .for('share');
  if (!source) return null;
  if (source.isPublic) return url; // already an avatar's copy (the current one, set again)
  const [document] = rowsOf<{ yes: boolean }>(
    await tx.execute(sql`select ${sentAsDocument} as yes from uploads u where u.id = ${source.id}`),
  );
  if (document?.yes) throw new Refusal(serverTexts.avatarIsDocument.id);
  await removePreviousAvatar(tx, userId);
  await refuseOverBounds(tx, userId, source.bytes.length);
  const id = newId();
  // The copy keeps the upload's time; it is referred to from the moment it exists (same transaction).
  await tx
    .insert(uploads)
    .values({ id, userId, mime: source.mime, bytes: source.bytes, isPublic: true, createdAt: source.createdAt });
  return `${UPLOADS_PATH}${id}`;
}

/** Deletes the user's current avatar copy: public, so nothing but the avatar may refer to it (an old avatar that is
 * also a document is kept). */
async function removePreviousAvatar(tx: Tx, userId: number): Promise<void> {
  await tx.execute(sql`
    delete from uploads u
    using users x
    where x.id = ${userId} and u.user_id = x.id and x.avatar = ${UPLOADS_PATH} || u.id and u.public
      and not exists (select 1 from recharge_orders r where r.user_id = u.user_id and r.proof = ${UPLOADS_PATH} || u.id)
      and not exists (select 1 from certifications c cross join jsonb_each_text(c.images) e where c.user_id = u.user_id and e.value = ${UPLOADS_PATH} || u.id)`);
}

/**
 * Deletes up to `limit` pictures nothing refers to that were uploaded more than the grace period
 * before `now` (one user's only, when given); answers how many. Each is claimed with FOR UPDATE SKIP
 * LOCKED (another process takes others; a call locking it to refer to it keeps it) and checked again
 * after the claim in a new statement, which sees any reference committed meanwhile.
 */
export async function removeUnusedUploads(
  tx: Tx,
  now: Date,
  { userId, limit = 500 }: { userId?: number; limit?: number } = {},
): Promise<number> {
  const uploadedBefore = new Date(now.getTime() - UNUSED_UPLOAD_GRACE_MS).toISOString();
  const owner: SQL = userId === undefined ? sql`` : sql`and u.user_id = ${userId}`;
  const claimed = rowsOf<{ id: string }>(
    await tx.execute(sql`
      select u.id from uploads u
      where u.created_at < ${uploadedBefore}::timestamptz ${owner} and not ${referredTo}
      order by u.created_at
      limit ${limit}
      for update of u skip locked`),
  );
  if (!claimed.length) return 0;
  const ids = sql.join(
    claimed.map(({ id }) => sql`${id}`),
    sql`, `,
  );
  const deleted = rowsOf<{ id: string }>(
    await tx.execute(sql`delete from uploads u where u.id in (${ids}) and not ${referredTo} returning u.id`),
  );
  return deleted.length;
}

export interface Picture {
  mime: string;
  bytes: Uint8Array;
  isPublic: boolean;
}

/**
 * The picture `viewerId` may see under this id: their own only — an avatar too, whatever an earlier version made
 * public (`public` no longer opens a picture to anyone). Null otherwise, whether or not the id exists: a refusal must
 * not tell them apart.
 */
export async function visiblePicture(db: Executor, id: string, viewerId: number | null): Promise<Picture | null> {
  if (!UPLOAD_ID.test(id) || viewerId === null) return null;
  const [row] = await db
    .select({ mime: uploads.mime, bytes: uploads.bytes, isPublic: uploads.isPublic })
    .from(uploads)
    .where(and(eq(uploads.id, id), eq(uploads.userId, viewerId)));
  return row ?? null;
}

/** Any upload, private or not, with its owner: for the operator reviewing certification documents. */
export async function anyUpload(db: Executor, id: string) {
  if (!UPLOAD_ID.test(id)) return null;
  const [row] = await db.select().from(uploads).where(eq(uploads.id, id));
  return row ?? null;
}
