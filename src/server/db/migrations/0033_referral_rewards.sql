-- Referral rewards (domain/referrals.ts): referral_rewards pays each invited friend's reward to the inviter at most
-- once (its primary key), and an index serves the inviter's list of friends. Numbered 0033: 0032 is taken by
-- neighbouring work, and its journal time is ten minutes after 0031's so that it sorts after 0032's.
CREATE TABLE "referral_rewards" (
	"friend_id" integer PRIMARY KEY NOT NULL,
	"inviter_id" integer NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric(36, 8) NOT NULL,
	"paid_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_friend_id_users_id_fk" FOREIGN KEY ("friend_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "referral_rewards" ADD CONSTRAINT "referral_rewards_inviter_id_users_id_fk" FOREIGN KEY ("inviter_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "users_invited_by_idx" ON "users" USING btree ("invited_by","created_at","id");