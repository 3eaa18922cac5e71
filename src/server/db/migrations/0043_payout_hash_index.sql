-- A recharge reporting the transaction of a payout the platform made is refused (domain/recharge.ts): the payouts'
-- hashes, as the operators typed them, are looked up in lower case.
CREATE INDEX IF NOT EXISTS "withdraw_orders_payout_hash_idx" ON "withdraw_orders" USING btree (lower("hash")) WHERE "withdraw_orders"."hash" <> '';
