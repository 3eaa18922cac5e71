CREATE TABLE "bank_cards" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"real_name" text NOT NULL,
	"ifsc" text NOT NULL,
	"bank_code" text NOT NULL,
	"bank_number" text NOT NULL,
	"phone" text NOT NULL,
	"email" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "certifications" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"level" text NOT NULL,
	"doc_type" text,
	"name" text DEFAULT '' NOT NULL,
	"number" text DEFAULT '' NOT NULL,
	"images" jsonb NOT NULL,
	"status" text DEFAULT 'review' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"reviewed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "recharge_channels" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"name" text NOT NULL,
	"currency" text NOT NULL,
	"asset" text DEFAULT 'USDT' NOT NULL,
	"chain" text,
	"address" text NOT NULL,
	"bank_name" text DEFAULT '' NOT NULL,
	"account_name" text DEFAULT '' NOT NULL,
	"min_amount" numeric(36, 8) NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
CREATE TABLE "recharge_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"order_no" text NOT NULL,
	"channel_id" integer NOT NULL,
	"kind" text NOT NULL,
	"channel_name" text NOT NULL,
	"chain" text,
	"address" text NOT NULL,
	"currency" text NOT NULL,
	"amount" numeric(36, 8) NOT NULL,
	"rate" numeric(20, 8) NOT NULL,
	"asset" text NOT NULL,
	"actual_amount" numeric(36, 8) NOT NULL,
	"hash" text,
	"proof" text DEFAULT '' NOT NULL,
	"block_height" text DEFAULT '' NOT NULL,
	"remark" text DEFAULT '' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"reviewed_at" timestamp with time zone,
	CONSTRAINT "recharge_orders_order_no_unique" UNIQUE("order_no"),
	CONSTRAINT "recharge_orders_amount_positive" CHECK ("recharge_orders"."amount" > 0 and "recharge_orders"."actual_amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "vip_levels" (
	"level" integer PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"value" numeric(36, 8) NOT NULL
);
--> statement-breakpoint
CREATE TABLE "wallets" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"alias" text NOT NULL,
	"currency" text NOT NULL,
	"chain" text NOT NULL,
	"address" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "withdraw_orders" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"order_no" text NOT NULL,
	"target" text NOT NULL,
	"payee_id" integer NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric(36, 8) NOT NULL,
	"fee_rate" numeric(10, 6) NOT NULL,
	"fee" numeric(36, 8) NOT NULL,
	"total" numeric(36, 8) NOT NULL,
	"actual_amount" numeric(36, 8) NOT NULL,
	"payee_name" text NOT NULL,
	"payee_account" text NOT NULL,
	"payee_network" text NOT NULL,
	"fiat_currency" text DEFAULT '' NOT NULL,
	"fiat_rate" numeric(20, 8),
	"fiat_amount" numeric(36, 2),
	"status" text DEFAULT 'review' NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	"hash" text DEFAULT '' NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"reviewed_at" timestamp with time zone,
	CONSTRAINT "withdraw_orders_order_no_unique" UNIQUE("order_no"),
	CONSTRAINT "withdraw_orders_amount_positive" CHECK ("withdraw_orders"."amount" > 0 and "withdraw_orders"."total" = "withdraw_orders"."amount" + "withdraw_orders"."fee")
);
--> statement-breakpoint
CREATE TABLE "withdraw_rules" (
	"asset" text PRIMARY KEY NOT NULL,
	"fee_rate" numeric(10, 6) NOT NULL,
	"min_amount" numeric(36, 8) NOT NULL,
	"max_amount" numeric(36, 8) NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "advanced_verification" text DEFAULT 'none' NOT NULL;--> statement-breakpoint
ALTER TABLE "bank_cards" ADD CONSTRAINT "bank_cards_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "certifications" ADD CONSTRAINT "certifications_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharge_orders" ADD CONSTRAINT "recharge_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "recharge_orders" ADD CONSTRAINT "recharge_orders_channel_id_recharge_channels_id_fk" FOREIGN KEY ("channel_id") REFERENCES "public"."recharge_channels"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "wallets" ADD CONSTRAINT "wallets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "withdraw_orders" ADD CONSTRAINT "withdraw_orders_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_cards_user_idx" ON "bank_cards" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "certifications_user_idx" ON "certifications" USING btree ("user_id","level","id");--> statement-breakpoint
CREATE INDEX "certifications_status_idx" ON "certifications" USING btree ("status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "certifications_one_in_review" ON "certifications" USING btree ("user_id","level") WHERE "certifications"."status" = 'review';--> statement-breakpoint
CREATE INDEX "recharge_orders_user_idx" ON "recharge_orders" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "recharge_orders_status_idx" ON "recharge_orders" USING btree ("status","id");--> statement-breakpoint
CREATE UNIQUE INDEX "recharge_orders_hash_once" ON "recharge_orders" USING btree ("hash") WHERE "recharge_orders"."hash" is not null and "recharge_orders"."status" <> 'rejected';--> statement-breakpoint
CREATE UNIQUE INDEX "wallets_user_address_once" ON "wallets" USING btree ("user_id","currency","chain","address");--> statement-breakpoint
CREATE INDEX "withdraw_orders_user_idx" ON "withdraw_orders" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "withdraw_orders_status_idx" ON "withdraw_orders" USING btree ("status","id");