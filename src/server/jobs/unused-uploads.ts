// Pictures nothing refers to (not an avatar, a transfer receipt or a certification document) are
// deleted 24 h after their upload (domain/uploads.ts: UNUSED_UPLOAD_GRACE_MS), which frees their
// place in the account's bounds. In batches, each its own short transaction that claims its rows
// with FOR UPDATE SKIP LOCKED: every server process runs the job, and none waits for another.
import type { Db } from '../db/connection.ts';
import { removeUnusedUploads } from '../domain/uploads.ts';

export const UNUSED_UPLOADS_BATCH = 500;

/** Deletes every picture unused past its grace as of `now`; answers how many. */
export async function deleteUnusedUploads(db: Db, now: Date, batch = UNUSED_UPLOADS_BATCH): Promise<number> {
  let deleted = 0;
  for (;;) {
    const removed = await db.transaction((tx) => removeUnusedUploads(tx, now, { limit: batch }));
    deleted += removed;
    // A short batch: nothing more is due, or the rest is claimed by another process right now.
    if (removed < batch) return deleted;
  }
}
