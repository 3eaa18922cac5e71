-- The house's exposure, kept as it changes (domain/house-limits.ts): per coin and direction, what a win of every open
-- option of real money would pay (stake × (1 + yield), truncated to 8 decimals; the orders opening or holding, not
-- practice). An order used to lock its side and sum every open order; it now reads one row, which its own insert has
-- moved and locked, so its cost no longer grows with the orders open and the lock lasts from the insert to the commit.
-- The triggers below keep the row in the transaction of any write to option_orders (an order placed, opened, voided,
-- settled; a row a test or an operator writes directly), so it always equals the sum it replaces.
-- No order may be written between the sum below and the triggers (a process still on the previous version, during a
-- rolling deploy): the table is locked against writes until this migration commits, after any write under way. While
-- processes of both versions serve orders, the previous version's check does not see this row's lock, so the
-- exposure cap is exact again once every process runs this one.
LOCK TABLE "option_orders" IN SHARE ROW EXCLUSIVE MODE;
--> statement-breakpoint
CREATE TABLE "house_exposure" (
	"coin" text NOT NULL,
	"direction" text NOT NULL,
	"open_payout" numeric(38, 8) DEFAULT '0' NOT NULL,
	CONSTRAINT "house_exposure_coin_direction_pk" PRIMARY KEY("coin","direction")
);
--> statement-breakpoint
INSERT INTO "house_exposure" ("coin", "direction", "open_payout")
SELECT coin, direction, sum(trunc(amount * (1 + yield_rate), 8)) FROM option_orders
WHERE status IN ('opening', 'holding') AND NOT practice GROUP BY coin, direction;
--> statement-breakpoint
-- One statement's change to the open payouts, netted per side and applied in (coin, direction) order: two
-- transactions moving the same sides lock their rows in the same order and never wait on each other in a cycle.
-- A statement that opens orders (opening → holding) moves nothing: both states are open.
CREATE FUNCTION house_exposure_follow() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    INSERT INTO house_exposure AS e (coin, direction, open_payout)
    SELECT coin, direction, sum(trunc(amount * (1 + yield_rate), 8)) FROM new_rows
    WHERE status IN ('opening', 'holding') AND NOT practice
    GROUP BY coin, direction ORDER BY coin, direction
    ON CONFLICT (coin, direction) DO UPDATE SET open_payout = e.open_payout + excluded.open_payout;
  ELSIF TG_OP = 'UPDATE' THEN
    INSERT INTO house_exposure AS e (coin, direction, open_payout)
    SELECT coin, direction, sum(payout) FROM (
      SELECT coin, direction, trunc(amount * (1 + yield_rate), 8) AS payout FROM new_rows
      WHERE status IN ('opening', 'holding') AND NOT practice
      UNION ALL
      SELECT coin, direction, -trunc(amount * (1 + yield_rate), 8) FROM old_rows
      WHERE status IN ('opening', 'holding') AND NOT practice
    ) moved
    GROUP BY coin, direction HAVING sum(payout) <> 0 ORDER BY coin, direction
    ON CONFLICT (coin, direction) DO UPDATE SET open_payout = e.open_payout + excluded.open_payout;
  ELSE
    INSERT INTO house_exposure AS e (coin, direction, open_payout)
    SELECT coin, direction, -sum(trunc(amount * (1 + yield_rate), 8)) FROM old_rows
    WHERE status IN ('opening', 'holding') AND NOT practice
    GROUP BY coin, direction ORDER BY coin, direction
    ON CONFLICT (coin, direction) DO UPDATE SET open_payout = e.open_payout + excluded.open_payout;
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER option_orders_exposure_insert AFTER INSERT ON option_orders REFERENCING NEW TABLE AS new_rows
FOR EACH STATEMENT EXECUTE FUNCTION house_exposure_follow();
--> statement-breakpoint
CREATE TRIGGER option_orders_exposure_update AFTER UPDATE ON option_orders
REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows FOR EACH STATEMENT EXECUTE FUNCTION house_exposure_follow();
--> statement-breakpoint
CREATE TRIGGER option_orders_exposure_delete AFTER DELETE ON option_orders REFERENCING OLD TABLE AS old_rows
FOR EACH STATEMENT EXECUTE FUNCTION house_exposure_follow();
--> statement-breakpoint
-- TRUNCATE fires no row or transition trigger: it empties the exposure with the orders.
CREATE FUNCTION house_exposure_clear() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM house_exposure;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER option_orders_exposure_truncate AFTER TRUNCATE ON option_orders
FOR EACH STATEMENT EXECUTE FUNCTION house_exposure_clear();
