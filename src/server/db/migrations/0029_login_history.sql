CREATE TABLE "login_history" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"succeeded" boolean NOT NULL,
	"method" text NOT NULL,
	"device" text DEFAULT '' NOT NULL,
	"address" text DEFAULT '' NOT NULL,
	"country" text,
	"notice_day" text
);
--> statement-breakpoint
ALTER TABLE "login_history" ADD CONSTRAINT "login_history_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "login_history_user_at" ON "login_history" USING btree ("user_id","at","id");--> statement-breakpoint
CREATE INDEX "login_history_at" ON "login_history" USING btree ("at");--> statement-breakpoint
CREATE UNIQUE INDEX "login_history_one_notice_a_day" ON "login_history" USING btree ("user_id","device","notice_day") WHERE "login_history"."notice_day" is not null;