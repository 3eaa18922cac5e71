CREATE TABLE "daily_runs" (
	"job" text NOT NULL,
	"day" text NOT NULL,
	"rows" integer DEFAULT 0 NOT NULL,
	"done_at" timestamp with time zone NOT NULL,
	CONSTRAINT "daily_runs_job_day_pk" PRIMARY KEY("job","day")
);
--> statement-breakpoint
CREATE TABLE "liquidity_accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"closed_day" text NOT NULL,
	"closing" numeric(36, 8) NOT NULL,
	"last_interest" numeric(36, 8) DEFAULT '0' NOT NULL,
	"total_interest" numeric(36, 8) DEFAULT '0' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "liquidity_rates" (
	"day" text PRIMARY KEY NOT NULL,
	"ladder" jsonb NOT NULL,
	"published_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "liquidity_records" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"kind" text NOT NULL,
	"mode" text,
	"amount" numeric(36, 8) NOT NULL,
	"day" text NOT NULL,
	"status" text NOT NULL,
	"pay_day" text,
	"created_at" timestamp with time zone NOT NULL,
	"paid_at" timestamp with time zone,
	CONSTRAINT "liquidity_records_amount_positive" CHECK ("liquidity_records"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "lockup_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"product_id" integer NOT NULL,
	"name" text NOT NULL,
	"amount" numeric(36, 8) NOT NULL,
	"days" integer NOT NULL,
	"daily_rate" numeric(10, 6) NOT NULL,
	"daily_income" numeric(36, 8) NOT NULL,
	"start_day" text NOT NULL,
	"end_day" text NOT NULL,
	"status" text DEFAULT 'processing' NOT NULL,
	"earned" numeric(36, 8) DEFAULT '0' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	CONSTRAINT "lockup_orders_amount_positive" CHECK ("lockup_orders"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "lockup_products" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"days" integer NOT NULL,
	"daily_rate" numeric(10, 6) NOT NULL,
	"min_amount" numeric(36, 8) NOT NULL,
	"max_amount" numeric(36, 8) NOT NULL,
	"quota" numeric(36, 8),
	"sold" numeric(36, 8) DEFAULT '0' NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
ALTER TABLE "liquidity_accounts" ADD CONSTRAINT "liquidity_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "liquidity_records" ADD CONSTRAINT "liquidity_records_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lockup_orders" ADD CONSTRAINT "lockup_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lockup_orders" ADD CONSTRAINT "lockup_orders_product_id_lockup_products_id_fk" FOREIGN KEY ("product_id") REFERENCES "public"."lockup_products"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "liquidity_records_user_idx" ON "liquidity_records" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "liquidity_records_day_idx" ON "liquidity_records" USING btree ("day","kind");--> statement-breakpoint
CREATE INDEX "liquidity_records_payable_idx" ON "liquidity_records" USING btree ("pay_day") WHERE "liquidity_records"."status" in ('submitted', 'waiting');--> statement-breakpoint
CREATE INDEX "lockup_orders_user_idx" ON "lockup_orders" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "lockup_orders_processing_idx" ON "lockup_orders" USING btree ("start_day","end_day") WHERE "lockup_orders"."status" = 'processing';