-- Ledger entries carry the order they took effect in (seq): the ledger draws it while it holds the
-- account's balance row, so one account's entries are in commit order on PGlite and PostgreSQL alike.
-- Existing entries are numbered in the best order known before: their time, then their id (the order
-- statements used). The sequence then goes on after the highest number.
ALTER TABLE "ledger_entries" ADD COLUMN "seq" bigserial NOT NULL;--> statement-breakpoint
UPDATE "ledger_entries" e SET "seq" = o.n
FROM (SELECT "id", row_number() OVER (ORDER BY "created_at", "id") AS n FROM "ledger_entries") o
WHERE e."id" = o."id";--> statement-breakpoint
SELECT setval(pg_get_serial_sequence('"ledger_entries"', 'seq'), coalesce((SELECT max("seq") FROM "ledger_entries"), 0) + 1, false);--> statement-breakpoint
CREATE INDEX "ledger_entries_account_seq_idx" ON "ledger_entries" USING btree ("user_id","asset","seq");--> statement-breakpoint
CREATE INDEX "ledger_entries_user_seq_idx" ON "ledger_entries" USING btree ("user_id","seq");
