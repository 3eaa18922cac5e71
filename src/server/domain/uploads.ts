// Uploaded pictures are referred to by the URL /users/upload answered; a call may only use the
// caller's own (an avatar, a transfer receipt, certification documents).
import { and, eq, inArray } from 'drizzle-orm';
import type { Executor } from '../db/connection.ts';
import { uploads } from '../db/schema.ts';

const UPLOADS_PATH = '/api/uploads/';

/** Whether every URL names a picture `userId` uploaded. */
export async function ownsUploads(db: Executor, userId: number, urls: readonly string[]): Promise<boolean> {
  const ids = [...new Set(urls.map((url) => url.slice(UPLOADS_PATH.length)))];
  if (!ids.length) return true;
  const own = await db.select({ id: uploads.id }).from(uploads).where(and(inArray(uploads.id, ids), eq(uploads.userId, userId)));
  return own.length === ids.length;
}
