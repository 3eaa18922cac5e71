-- A wallet at an address any customer was given to pay a recharge to is refused (domain/payouts.ts): the recharges'
-- addresses are looked up in lower case, as bech32 and EIP-55 addresses compare without letter case.
CREATE INDEX IF NOT EXISTS "recharge_orders_address_idx" ON "recharge_orders" USING btree (lower("address"));
