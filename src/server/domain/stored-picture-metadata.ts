// Pictures stored before uploads were kept without their metadata (picture-metadata.ts) still hold what the camera or
// the editor wrote: a customer's GPS position, camera serial number and time taken in an ID photo or a receipt, read
// by every reviewer who opens it and copied into every backup. This pass rewrites each stored picture through the same
// withoutMetadata the upload uses, in the database itself (not when a picture is served: the position would stay in
// the database and its backups, and be stripped again at every view). It is safe to run again and while the server
// runs: a picture already clean (every one uploaded under the rule) is left as it is and not audited, each batch of
// rows is locked while it is rewritten, and a picture deleted meanwhile is simply not found. A picture whose structure
// cannot be walked to its end is left as it is and named, for the operator to look at (`picture <id> <file>`): a
// stripping that stops halfway could leave its metadata in.
import { asc, eq, gt } from 'drizzle-orm';
import type { Db } from '../db/connection.ts';
import { uploads } from '../db/schema.ts';
import { appendAudit, type Actor } from './audit-log.ts';
import { withoutMetadata, type PictureType } from './picture-metadata.ts';

/** Pictures read and rewritten in one transaction: at most 20 × 5 MB in memory at once. */
const BATCH = 20;
const PICTURE_TYPES: readonly string[] = ['image/jpeg', 'image/png', 'image/webp', 'image/gif'] satisfies PictureType[];

/** What a pass did: pictures read, rewritten without their metadata, bytes freed, and the ids of those it could not
 * read (a type the upload never took, or a structure that cannot be walked), oldest id first. */
export interface MetadataPass {
  examined: number;
  rewritten: number;
  bytesFreed: number;
  unreadable: string[];
}

/**
 * Rewrites every stored picture that still holds metadata through withoutMetadata, each rewrite with its audit entry
 * `upload.strip-metadata` (target `upload:<id>`, the owner and the size in bytes before and after) in its batch's
 * transaction, as `actor` at `now`. Pictures already without metadata are left untouched, so a second pass rewrites
 * nothing. Answers what it did (MetadataPass).
 */
export async function stripStoredPictureMetadata(db: Db, actor: Actor, now: Date): Promise<MetadataPass> {
  const pass: MetadataPass = { examined: 0, rewritten: 0, bytesFreed: 0, unreadable: [] };
  let after: string | null = null;
  for (;;) {
    const last: string | null = await db.transaction(async (tx) => {
      const rows = await tx
        .select()
        .from(uploads)
        .where(after === null ? undefined : gt(uploads.id, after))
        .orderBy(asc(uploads.id))
        .limit(BATCH)
        .for('update');
      for (const row of rows) {
        pass.examined++;
        const stored = Buffer.from(row.bytes);
        const kept = PICTURE_TYPES.includes(row.mime) ? withoutMetadata(stored, row.mime as PictureType) : null;
        if (!kept) {
          pass.unreadable.push(row.id);
          continue;
        }
        if (kept.equals(stored)) continue;
        await tx.update(uploads).set({ bytes: kept }).where(eq(uploads.id, row.id));
        await appendAudit(
          tx,
          actor,
          'upload.strip-metadata',
          `upload:${row.id}`,
          { before: { user: row.userId, bytes: stored.length }, after: { user: row.userId, bytes: kept.length } },
          now,
        );
        pass.rewritten++;
        pass.bytesFreed += stored.length - kept.length;
      }
      return rows.length === BATCH ? rows.at(-1)!.id : null;
    });
    if (last === null) return pass;
    after = last;
  }
}
