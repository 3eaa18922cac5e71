-- A crypto recharge channel may keep an extended public key: each customer is shown their own deposit address under
-- it (domain/deposit-addresses.ts), so nobody can report another customer's public transfer as their own. The demo
-- channels seeded earlier get the demo keys (db/seed-funds.ts); a channel with another address is left as it is.
ALTER TABLE "recharge_channels" ADD COLUMN "xpub" text;--> statement-breakpoint
UPDATE "recharge_channels" SET "xpub" = 'xpub6CNRpP1cyvB4kGszPWUviBxL8hCpnfQu79yA7HKjNrKJKZWdva4vs7AvDnqZ2qbFyELuRJaHfhi4LDMi9h6851PQvhox5QGABcT1gigFdha' WHERE "chain" = 'TRC20' AND "address" = 'TDQ4YkrW7fhZzLG6czaiffaUsdAvsaKtK2';--> statement-breakpoint
UPDATE "recharge_channels" SET "xpub" = 'xpub6C9jGfEdUHrnVtubXXoYqU2U8DpfDdcMTpS86DGFHNDXrQatZ7fZn16B8nEWBUVawHCJhcvcCqCd6hQs4cbd7u9BtvpeEpMync5HqjJnnwW' WHERE "chain" = 'ERC20' AND "address" = '0xAf8051ba9ef50Df892541D059b26eaB1AcE52610';--> statement-breakpoint
UPDATE "recharge_channels" SET "xpub" = 'xpub6D71MuCbwuA2VKCad4MTcFX1o5iekDeraHZJ3tsByLzegfut4poaABooZ8Bee72h1PEqgfssbVLs2VXu7n4v2r9vMhwCKf74U4GV7puoEdk' WHERE "chain" = 'BEP20' AND "address" = '0x14A85a23ebde84805576a35fc5555873Df336831';
