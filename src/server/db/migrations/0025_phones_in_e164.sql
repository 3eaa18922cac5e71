CREATE TABLE "phone_duplicates" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"kind" text NOT NULL,
	"phone" text,
	"stored_phone" text NOT NULL,
	"found_at" timestamp with time zone NOT NULL,
	CONSTRAINT "phone_duplicates_kind_known" CHECK ("phone_duplicates"."kind" in ('duplicate', 'not_mobile'))
);
--> statement-breakpoint
ALTER TABLE "phone_duplicates" ADD CONSTRAINT "phone_duplicates_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "phone_duplicates_phone_idx" ON "phone_duplicates" USING btree ("phone");