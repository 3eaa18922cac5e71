CREATE TABLE "leases" (
	"name" text PRIMARY KEY NOT NULL,
	"holder" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "uploads" ADD COLUMN "public" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "price_ticks_at_idx" ON "price_ticks" USING btree ("at");--> statement-breakpoint
UPDATE "uploads" SET "public" = true WHERE "id" IN (SELECT substr("avatar", length('/api/uploads/') + 1) FROM "users" WHERE "avatar" LIKE '/api/uploads/%');
