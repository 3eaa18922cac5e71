CREATE TABLE "address_locks" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"on_since" timestamp with time zone,
	"off_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "protection_limits" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"stake_day" numeric(36, 8),
	"stake_week" numeric(36, 8),
	"stake_month" numeric(36, 8),
	"loss_day" numeric(36, 8),
	"loss_week" numeric(36, 8),
	"loss_month" numeric(36, 8),
	"max_open_options" integer,
	"reminder_minutes" integer,
	"timeout_until" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "protection_pending" (
	"user_id" integer NOT NULL,
	"setting" text NOT NULL,
	"value" text,
	"requested_at" timestamp with time zone NOT NULL,
	"effective_at" timestamp with time zone NOT NULL,
	CONSTRAINT "protection_pending_user_id_setting_pk" PRIMARY KEY("user_id","setting")
);
--> statement-breakpoint
CREATE TABLE "risk_figures" (
	"day" text PRIMARY KEY NOT NULL,
	"traders" integer NOT NULL,
	"losers" integer NOT NULL,
	"computed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "bank_cards" ADD COLUMN "label" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "anti_phishing_code" text;--> statement-breakpoint
ALTER TABLE "address_locks" ADD CONSTRAINT "address_locks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "protection_limits" ADD CONSTRAINT "protection_limits_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "protection_pending" ADD CONSTRAINT "protection_pending_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;