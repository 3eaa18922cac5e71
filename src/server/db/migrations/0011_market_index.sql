-- The market index: coins it has halted (written by the feed's holder with each step; no order may
-- use a halted coin's price), and each tick's constituents (exchange, price, exchange time; null for
-- the simulator), so every settlement price can be checked against the market; and each coin's
-- symbol on an exchange where it differs from that exchange's usual spelling.
CREATE TABLE "market_halts" (
	"coin" text PRIMARY KEY NOT NULL,
	"since" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "coins" ADD COLUMN "exchange_symbols" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "price_ticks" ADD COLUMN "constituents" jsonb;
