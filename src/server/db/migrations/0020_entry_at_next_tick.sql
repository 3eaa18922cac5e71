-- Entry at the next tick: an option waits ('opening') for the first tick recorded after it was
-- accepted, which gives its start price and, from that tick's time, its end time; a market contract
-- order waits ('filling') with its funds frozen for the first tick after it was accepted, and is
-- void (funds released, the reason kept) when none comes in time or that tick left its reserve behind;
-- and the indexes the house limits read (a customer's last minute, the open orders of a coin and direction).
ALTER TABLE "contract_orders" DROP CONSTRAINT "contract_orders_status";--> statement-breakpoint
ALTER TABLE "option_orders" ALTER COLUMN "start_price" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "option_orders" ALTER COLUMN "start_price_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "option_orders" ALTER COLUMN "end_at" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "contract_orders" ADD COLUMN "void_reason" text;--> statement-breakpoint
CREATE INDEX "contract_orders_filling" ON "contract_orders" USING btree ("coin","created_at","id") WHERE "contract_orders"."status" = 'filling';--> statement-breakpoint
CREATE INDEX "option_orders_opening_idx" ON "option_orders" USING btree ("start_at","id") WHERE "option_orders"."status" = 'opening';--> statement-breakpoint
CREATE INDEX "option_orders_user_start_idx" ON "option_orders" USING btree ("user_id","start_at");--> statement-breakpoint
CREATE INDEX "option_orders_open_exposure_idx" ON "option_orders" USING btree ("coin","direction") WHERE "option_orders"."status" in ('opening', 'holding');--> statement-breakpoint
ALTER TABLE "contract_orders" ADD CONSTRAINT "contract_orders_status" CHECK ("contract_orders"."status" in ('open', 'filling', 'filled', 'cancelled', 'void'));