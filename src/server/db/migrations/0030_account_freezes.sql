CREATE TABLE "account_freezes" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"frozen_since" timestamp with time zone,
	"unfreeze_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "account_freezes" ADD CONSTRAINT "account_freezes_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;