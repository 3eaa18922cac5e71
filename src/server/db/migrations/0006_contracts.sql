CREATE TABLE "contract_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"coin" text NOT NULL,
	"side" text NOT NULL,
	"type" text NOT NULL,
	"status" text NOT NULL,
	"price" numeric(36, 12),
	"quantity" numeric(36, 8) NOT NULL,
	"total_asked" numeric(36, 8),
	"fee_rate" numeric(10, 6) NOT NULL,
	"frozen_asset" text NOT NULL,
	"frozen" numeric(36, 8) DEFAULT '0' NOT NULL,
	"eligible_after" timestamp with time zone NOT NULL,
	"unit_price" numeric(36, 12),
	"dealt_quantity" numeric(36, 8) DEFAULT '0' NOT NULL,
	"total" numeric(36, 8),
	"fee" numeric(36, 8),
	"fee_asset" text,
	"spent" numeric(36, 8),
	"spent_asset" text,
	"received" numeric(36, 8),
	"received_asset" text,
	"tick_price" numeric(36, 12),
	"tick_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"filled_at" timestamp with time zone,
	"cancelled_at" timestamp with time zone,
	CONSTRAINT "contract_orders_quantity_positive" CHECK ("contract_orders"."quantity" > 0),
	CONSTRAINT "contract_orders_status" CHECK ("contract_orders"."status" in ('open', 'filled', 'cancelled'))
);
--> statement-breakpoint
CREATE TABLE "contract_pairs" (
	"coin" text PRIMARY KEY NOT NULL,
	"price_decimals" integer NOT NULL,
	"quantity_decimals" integer NOT NULL,
	"min_notional" numeric(36, 8) NOT NULL,
	"fee_rate" numeric(10, 6) NOT NULL,
	"price_band" numeric(10, 4) NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"matched_through" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "contract_orders" ADD CONSTRAINT "contract_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "contract_orders_open_buys" ON "contract_orders" USING btree ("coin","price") WHERE "contract_orders"."status" = 'open' and "contract_orders"."side" = 'buy';--> statement-breakpoint
CREATE INDEX "contract_orders_open_sells" ON "contract_orders" USING btree ("coin","price") WHERE "contract_orders"."status" = 'open' and "contract_orders"."side" = 'sell';--> statement-breakpoint
CREATE INDEX "contract_orders_user_idx" ON "contract_orders" USING btree ("user_id","status","id");