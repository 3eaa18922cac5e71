-- The demo deposit addresses seeded before passed no chain's checksum: a wallet refuses to send to them. Each is
-- replaced by one that passes its chain's standard (TRON base58check, EIP-55), only where the seeded value is still
-- there: an address an operator set stays as it is.
UPDATE "recharge_channels" SET "address" = 'TDQ4YkrW7fhZzLG6czaiffaUsdAvsaKtK2'
  WHERE "chain" = 'TRC20' AND "address" = 'TQrZ8kB6mDn9yV3xWcYhJ4sPfE2uA7LgKt';--> statement-breakpoint
UPDATE "recharge_channels" SET "address" = '0xAf8051ba9ef50Df892541D059b26eaB1AcE52610'
  WHERE "chain" = 'ERC20' AND "address" = '0x7d3B4e1A9c0F2b6E8a5D9c1F3e7A2b4C6d8E0f1A';--> statement-breakpoint
UPDATE "recharge_channels" SET "address" = '0x14A85a23ebde84805576a35fc5555873Df336831'
  WHERE "chain" = 'BEP20' AND "address" = '0x2F9a6C1e4B7d0A3c5E8f1B2d4C6a8E0b3D5f7A9c';
