-- On a large table an operator may build it beforehand without stopping writes (src/server/README.md, Retention):
-- CREATE INDEX CONCURRENTLY "idempotency_keys_created_at_idx" ON "idempotency_keys" USING btree ("created_at");
CREATE INDEX IF NOT EXISTS "idempotency_keys_created_at_idx" ON "idempotency_keys" USING btree ("created_at");
