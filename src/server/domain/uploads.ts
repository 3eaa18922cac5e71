// Uploaded pictures are referred to by the URL /users/upload answered; a call may only use the
// caller's own (an avatar, a transfer receipt, certification documents). Every upload is private
// (its owner and the operator command only) until its owner makes it their avatar: then public.
import { randomBytes } from 'node:crypto';
import { and, eq, inArray, or } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { uploads } from '../db/schema.ts';

export const UPLOADS_PATH = '/api/uploads/';
/** The id part of an upload's URL, as /users/upload makes it (the contract's UPLOAD_URL). */
export const UPLOAD_ID = /^[A-Za-z0-9_-]{10,64}$/;

const idOf = (url: string) => url.slice(UPLOADS_PATH.length);

/** Keeps a picture `userId` uploaded, private to them; answers the URL it is referred to by. */
export async function keepUpload(db: Executor, userId: number, picture: { mime: string; bytes: Buffer }): Promise<string> {
  const id = randomBytes(18).toString('base64url');
  await db.insert(uploads).values({ id, userId, mime: picture.mime, bytes: picture.bytes });
  return `${UPLOADS_PATH}${id}`;
}

/** Whether every URL names a picture `userId` uploaded. */
export async function ownsUploads(db: Executor, userId: number, urls: readonly string[]): Promise<boolean> {
  const ids = [...new Set(urls.map(idOf))];
  if (!ids.length) return true;
  const own = await db
    .select({ id: uploads.id })
    .from(uploads)
    .where(and(inArray(uploads.id, ids), eq(uploads.userId, userId)));
  return own.length === ids.length;
}

/**
 * Makes the caller's own picture public, to be their avatar (everyone sees avatars). False, and
 * nothing changed, when the URL names no picture of theirs.
 */
export async function publishOwnUpload(db: Executor, userId: number, url: string): Promise<boolean> {
  const marked = await db
    .update(uploads)
    .set({ isPublic: true })
    .where(and(eq(uploads.id, idOf(url)), eq(uploads.userId, userId)))
    .returning({ id: uploads.id });
  return marked.length === 1;
}

export interface Picture {
  mime: string;
  bytes: Uint8Array;
  isPublic: boolean;
}

/**
 * The picture `viewerId` may see under this id: a public one to anyone, a private one to its
 * owner only. Null otherwise, whether or not the id exists: a refusal must not tell them apart.
 */
export async function visiblePicture(db: Executor, id: string, viewerId: number | null): Promise<Picture | null> {
  if (!UPLOAD_ID.test(id)) return null;
  const visible = viewerId === null ? eq(uploads.isPublic, true) : or(eq(uploads.isPublic, true), eq(uploads.userId, viewerId));
  const [row] = await db
    .select({ mime: uploads.mime, bytes: uploads.bytes, isPublic: uploads.isPublic })
    .from(uploads)
    .where(and(eq(uploads.id, id), visible));
  return row ?? null;
}

/** Any upload, private or not, with its owner: for the operator reviewing certification documents. */
export async function anyUpload(db: Executor, id: string) {
  if (!UPLOAD_ID.test(id)) return null;
  const [row] = await db.select().from(uploads).where(eq(uploads.id, id));
  return row ?? null;
}
