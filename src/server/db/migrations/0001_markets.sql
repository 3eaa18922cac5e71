CREATE TABLE "balances" (
	"user_id" integer NOT NULL,
	"asset" text NOT NULL,
	"available" numeric(36, 8) DEFAULT '0' NOT NULL,
	"frozen" numeric(36, 8) DEFAULT '0' NOT NULL,
	CONSTRAINT "balances_user_id_asset_pk" PRIMARY KEY("user_id","asset"),
	CONSTRAINT "balances_available_nonnegative" CHECK ("balances"."available" >= 0),
	CONSTRAINT "balances_frozen_nonnegative" CHECK ("balances"."frozen" >= 0)
);
--> statement-breakpoint
CREATE TABLE "candles_1m" (
	"coin" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"open" numeric(36, 12) NOT NULL,
	"high" numeric(36, 12) NOT NULL,
	"low" numeric(36, 12) NOT NULL,
	"close" numeric(36, 12) NOT NULL,
	"volume" numeric(36, 8) NOT NULL,
	CONSTRAINT "candles_1m_coin_minute_pk" PRIMARY KEY("coin","minute")
);
--> statement-breakpoint
CREATE TABLE "coins" (
	"code" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"price_decimals" integer DEFAULT 2 NOT NULL,
	"start_price" numeric(36, 12) NOT NULL,
	"volatility" numeric(8, 4) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "fiat_rates" (
	"code" text PRIMARY KEY NOT NULL,
	"symbol" text NOT NULL,
	"rate" numeric(20, 8) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "ledger_entries" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"asset" text NOT NULL,
	"bucket" text NOT NULL,
	"amount" numeric(36, 8) NOT NULL,
	"kind" text NOT NULL,
	"reference" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "option_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"coin" text NOT NULL,
	"product_id" integer NOT NULL,
	"direction" text NOT NULL,
	"amount" numeric(36, 8) NOT NULL,
	"minutes" integer NOT NULL,
	"yield_rate" numeric(10, 4) NOT NULL,
	"start_price" numeric(36, 12) NOT NULL,
	"start_price_at" timestamp with time zone NOT NULL,
	"start_at" timestamp with time zone NOT NULL,
	"end_at" timestamp with time zone NOT NULL,
	"status" text DEFAULT 'holding' NOT NULL,
	"end_price" numeric(36, 12),
	"end_price_at" timestamp with time zone,
	"outcome" text,
	"payout" numeric(36, 8),
	"profit" numeric(36, 8),
	"settled_at" timestamp with time zone,
	CONSTRAINT "option_orders_amount_positive" CHECK ("option_orders"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "option_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"coin" text NOT NULL,
	"minutes" integer NOT NULL,
	"yield_rate" numeric(10, 4) NOT NULL,
	"min_amount" numeric(36, 8) DEFAULT '1' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_ticks" (
	"coin" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"price" numeric(36, 12) NOT NULL,
	CONSTRAINT "price_ticks_coin_at_pk" PRIMARY KEY("coin","at")
);
--> statement-breakpoint
ALTER TABLE "balances" ADD CONSTRAINT "balances_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ledger_entries" ADD CONSTRAINT "ledger_entries_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "option_orders" ADD CONSTRAINT "option_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "ledger_entries_once" ON "ledger_entries" USING btree ("kind","reference","user_id","asset","bucket");--> statement-breakpoint
CREATE INDEX "ledger_entries_user_idx" ON "ledger_entries" USING btree ("user_id","created_at");--> statement-breakpoint
CREATE INDEX "option_orders_due_idx" ON "option_orders" USING btree ("status","end_at");--> statement-breakpoint
CREATE INDEX "option_orders_user_idx" ON "option_orders" USING btree ("user_id","status","id");