-- An account's pictures are counted at each upload against its bounds (domain/uploads.ts): by this index.
CREATE INDEX "uploads_user_idx" ON "uploads" USING btree ("user_id","created_at");--> statement-breakpoint
-- An avatar is now a public copy of the upload it was made from. Before, the upload itself became
-- public, so one that was also an identity document or a transfer receipt was public too: such an
-- avatar gets its own copy, and the document or receipt is private again.
WITH "shared" AS (
  SELECT u."id", u."user_id", u."mime", u."bytes", u."created_at", replace(gen_random_uuid()::text, '-', '') AS "copy_id"
  FROM "uploads" u
  WHERE u."public" AND (
    EXISTS (SELECT 1 FROM "recharge_orders" r WHERE r."user_id" = u."user_id" AND r."proof" = '/api/uploads/' || u."id")
    OR EXISTS (SELECT 1 FROM "certifications" c CROSS JOIN jsonb_each_text(c."images") e WHERE c."user_id" = u."user_id" AND e."value" = '/api/uploads/' || u."id")
  )
), "copies" AS (
  INSERT INTO "uploads" ("id", "user_id", "mime", "bytes", "public", "created_at")
  SELECT s."copy_id", s."user_id", s."mime", s."bytes", true, s."created_at"
  FROM "shared" s JOIN "users" x ON x."id" = s."user_id" AND x."avatar" = '/api/uploads/' || s."id"
), "avatars" AS (
  UPDATE "users" x SET "avatar" = '/api/uploads/' || s."copy_id" FROM "shared" s WHERE x."id" = s."user_id" AND x."avatar" = '/api/uploads/' || s."id"
)
UPDATE "uploads" SET "public" = false WHERE "id" IN (SELECT "id" FROM "shared");
