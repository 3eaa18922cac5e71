-- Conditional contract orders (domain/contract-triggers.ts): stop-market, stop-limit and take-profit / stop-loss legs
-- wait as 'waiting' with a trigger price and direction until a recorded tick after their acceptance reaches it; legs
-- attached to an open order wait as 'attached' for it to fill; an OCO pair shares oco_group; 'expired' ends a wait.
ALTER TABLE "contract_orders" DROP CONSTRAINT "contract_orders_status";--> statement-breakpoint
ALTER TABLE "contract_orders" ADD COLUMN "trigger_price" numeric(36, 12);--> statement-breakpoint
ALTER TABLE "contract_orders" ADD COLUMN "trigger_above" boolean;--> statement-breakpoint
ALTER TABLE "contract_orders" ADD COLUMN "triggered_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contract_orders" ADD COLUMN "trigger_tick_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contract_orders" ADD COLUMN "trigger_tick_price" numeric(36, 12);--> statement-breakpoint
ALTER TABLE "contract_orders" ADD COLUMN "expires_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contract_orders" ADD COLUMN "leg" text;--> statement-breakpoint
ALTER TABLE "contract_orders" ADD COLUMN "oco_group" integer;--> statement-breakpoint
ALTER TABLE "contract_orders" ADD COLUMN "parent_id" integer;--> statement-breakpoint
CREATE INDEX "contract_orders_waiting_above" ON "contract_orders" USING btree ("coin","trigger_price") WHERE "contract_orders"."status" = 'waiting' and "contract_orders"."trigger_above";--> statement-breakpoint
CREATE INDEX "contract_orders_waiting_below" ON "contract_orders" USING btree ("coin","trigger_price") WHERE "contract_orders"."status" = 'waiting' and not "contract_orders"."trigger_above";--> statement-breakpoint
CREATE INDEX "contract_orders_oco" ON "contract_orders" USING btree ("oco_group") WHERE "contract_orders"."oco_group" is not null;--> statement-breakpoint
CREATE INDEX "contract_orders_parent" ON "contract_orders" USING btree ("parent_id") WHERE "contract_orders"."parent_id" is not null;--> statement-breakpoint
ALTER TABLE "contract_orders" ADD CONSTRAINT "contract_orders_status" CHECK ("contract_orders"."status" in ('open', 'filling', 'filled', 'cancelled', 'void', 'waiting', 'attached', 'expired'));