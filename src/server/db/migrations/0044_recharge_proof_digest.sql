-- One bank transfer receipt backs one recharge, compared by its picture's bytes (SHA-256), whoever uploaded it
-- (domain/recharge.ts). Recharges made before keep the digest of their receipt: of two that share a picture and are not
-- rejected, only the earlier (they were both allowed then), so the index below can be made.
ALTER TABLE "recharge_orders" ADD COLUMN "proof_digest" "bytea";--> statement-breakpoint
UPDATE "recharge_orders" AS r SET "proof_digest" = first.digest
FROM (
  SELECT DISTINCT ON (sha256(u."bytes")) o."id", sha256(u."bytes") AS digest
  FROM "recharge_orders" o JOIN "uploads" u ON o."proof" = '/api/uploads/' || u."id"
  WHERE o."proof" <> '' AND o."status" <> 'rejected'
  ORDER BY sha256(u."bytes"), o."id"
) AS first
WHERE r."id" = first."id";--> statement-breakpoint
CREATE UNIQUE INDEX "recharge_orders_proof_once" ON "recharge_orders" USING btree ("proof_digest") WHERE "recharge_orders"."proof_digest" is not null and "recharge_orders"."status" <> 'rejected';
