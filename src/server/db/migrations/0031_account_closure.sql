-- Closing an account (domain/closure.ts): users.closed_at, and closed_accounts holding what the law makes us keep of how
-- it was reached and when its phone and e-mail may register again. Numbered 0031: 0029 and 0030 are taken by
-- neighbouring work.
CREATE TABLE "closed_accounts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"username" text NOT NULL,
	"phone" text,
	"email" text,
	"closed_at" timestamp with time zone NOT NULL,
	"contacts_free_at" timestamp with time zone NOT NULL,
	"kept_until" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "closed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "closed_accounts" ADD CONSTRAINT "closed_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "closed_accounts_phone_idx" ON "closed_accounts" USING btree ("phone");--> statement-breakpoint
CREATE INDEX "closed_accounts_email_idx" ON "closed_accounts" USING btree ("email");