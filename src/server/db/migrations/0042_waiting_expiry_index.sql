-- The matcher looks for waiting conditional orders whose lifetime is over every second, whether or not their coin
-- records a tick (domain/contract-triggers.ts, expireLapsed): it reads only the due ones of a coin.
CREATE INDEX IF NOT EXISTS "contract_orders_waiting_expiry" ON "contract_orders" USING btree ("coin","expires_at") WHERE "contract_orders"."status" = 'waiting';
