CREATE TABLE "practice_accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"resets" integer DEFAULT 0 NOT NULL,
	"opened_at" timestamp with time zone NOT NULL,
	"reset_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "price_alert_marks" (
	"coin" text PRIMARY KEY NOT NULL,
	"checked_through" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "price_alerts" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"coin" text NOT NULL,
	"kind" text NOT NULL,
	"price" numeric(36, 12),
	"percent" numeric(10, 4),
	"created_at" timestamp with time zone NOT NULL,
	"checked_through" timestamp with time zone,
	"fired_at" timestamp with time zone,
	"fired_price" numeric(36, 12),
	"fired_tick_at" timestamp with time zone,
	"fired_from_price" numeric(36, 12),
	CONSTRAINT "price_alerts_kind" CHECK ("price_alerts"."kind" in ('above', 'below', 'move')),
	CONSTRAINT "price_alerts_target" CHECK (("price_alerts"."kind" = 'move' and "price_alerts"."percent" > 0 and "price_alerts"."price" is null) or ("price_alerts"."kind" <> 'move' and "price_alerts"."price" > 0 and "price_alerts"."percent" is null))
);
--> statement-breakpoint
ALTER TABLE "contract_orders" ADD COLUMN "practice" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "option_orders" ADD COLUMN "practice" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "practice_accounts" ADD CONSTRAINT "practice_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "price_alerts" ADD CONSTRAINT "price_alerts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "price_alerts_user_idx" ON "price_alerts" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "price_alerts_waiting_idx" ON "price_alerts" USING btree ("coin") WHERE "price_alerts"."fired_at" is null;--> statement-breakpoint
CREATE INDEX "price_alerts_above_idx" ON "price_alerts" USING btree ("coin","price") WHERE "price_alerts"."fired_at" is null and "price_alerts"."kind" = 'above' and "price_alerts"."checked_through" is null;--> statement-breakpoint
CREATE INDEX "price_alerts_below_idx" ON "price_alerts" USING btree ("coin","price") WHERE "price_alerts"."fired_at" is null and "price_alerts"."kind" = 'below' and "price_alerts"."checked_through" is null;--> statement-breakpoint
CREATE INDEX "price_alerts_move_idx" ON "price_alerts" USING btree ("coin","percent") WHERE "price_alerts"."fired_at" is null and "price_alerts"."kind" = 'move' and "price_alerts"."checked_through" is null;--> statement-breakpoint
CREATE INDEX "price_alerts_joining_idx" ON "price_alerts" USING btree ("coin","id") WHERE "price_alerts"."fired_at" is null and "price_alerts"."checked_through" is not null;