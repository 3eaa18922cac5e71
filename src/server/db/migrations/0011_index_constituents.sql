-- Each tick of the market index keeps the exchanges' prices it was made of (exchange, price,
-- exchange time), so every settlement price can be checked against the market. Null for the simulator.
ALTER TABLE "price_ticks" ADD COLUMN "constituents" jsonb;
