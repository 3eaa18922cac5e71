-- A channel's earlier deposit keys (domain/channel-keys.ts keeps them when an admin changes the key): a customer's
-- address under one is still the platform's wallet, so the withdrawal wallet check refuses it (domain/payouts.ts).
ALTER TABLE "recharge_channels" ADD COLUMN "previous_xpubs" text[] DEFAULT '{}'::text[] NOT NULL;
