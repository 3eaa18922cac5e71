CREATE TABLE "activities" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"cover" text DEFAULT '' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	"starts_at" timestamp with time zone NOT NULL,
	"ends_at" timestamp with time zone,
	"sort" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "box_draws" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"seed_id" integer NOT NULL,
	"nonce" integer NOT NULL,
	"client_seed" text NOT NULL,
	"roll" integer NOT NULL,
	"prize_id" integer NOT NULL,
	"prize_name" text NOT NULL,
	"prize_asset" text NOT NULL,
	"prize_amount" numeric(36, 8) NOT NULL,
	"cost_asset" text NOT NULL,
	"cost" numeric(36, 8) NOT NULL,
	"prize_table" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "box_prizes" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"asset" text NOT NULL,
	"amount" numeric(36, 8) NOT NULL,
	"weight" integer NOT NULL,
	"stock" integer,
	"sort" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	CONSTRAINT "box_prizes_stock_nonnegative" CHECK ("box_prizes"."stock" is null or "box_prizes"."stock" >= 0),
	CONSTRAINT "box_prizes_weight_positive" CHECK ("box_prizes"."weight" > 0)
);
--> statement-breakpoint
CREATE TABLE "box_seeds" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"server_seed" text NOT NULL,
	"server_hash" text NOT NULL,
	"client_seed" text NOT NULL,
	"next_nonce" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"revealed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "content_pages" (
	"key" text NOT NULL,
	"lang" text NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	CONSTRAINT "content_pages_key_lang_pk" PRIMARY KEY("key","lang")
);
--> statement-breakpoint
CREATE TABLE "invite_permissions" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"granted_at" timestamp with time zone NOT NULL,
	"reason" text DEFAULT '' NOT NULL
);
--> statement-breakpoint
CREATE TABLE "sign_ins" (
	"user_id" integer NOT NULL,
	"day" text NOT NULL,
	"streak" integer NOT NULL,
	"reward" numeric(36, 8) NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "sign_ins_user_id_day_pk" PRIMARY KEY("user_id","day")
);
--> statement-breakpoint
CREATE TABLE "welfare_claims" (
	"user_id" integer NOT NULL,
	"task_code" text NOT NULL,
	"asset" text NOT NULL,
	"reward" numeric(36, 8) NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "welfare_claims_user_id_task_code_pk" PRIMARY KEY("user_id","task_code")
);
--> statement-breakpoint
CREATE TABLE "welfare_tasks" (
	"code" text PRIMARY KEY NOT NULL,
	"asset" text NOT NULL,
	"reward" numeric(36, 8) NOT NULL,
	"sort" integer DEFAULT 0 NOT NULL,
	"active" boolean DEFAULT true NOT NULL
);
--> statement-breakpoint
ALTER TABLE "box_draws" ADD CONSTRAINT "box_draws_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "box_draws" ADD CONSTRAINT "box_draws_seed_id_box_seeds_id_fk" FOREIGN KEY ("seed_id") REFERENCES "public"."box_seeds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "box_draws" ADD CONSTRAINT "box_draws_prize_id_box_prizes_id_fk" FOREIGN KEY ("prize_id") REFERENCES "public"."box_prizes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "box_seeds" ADD CONSTRAINT "box_seeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "invite_permissions" ADD CONSTRAINT "invite_permissions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "sign_ins" ADD CONSTRAINT "sign_ins_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "welfare_claims" ADD CONSTRAINT "welfare_claims_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "box_draws_seed_nonce" ON "box_draws" USING btree ("seed_id","nonce");--> statement-breakpoint
CREATE INDEX "box_draws_user_idx" ON "box_draws" USING btree ("user_id","id");--> statement-breakpoint
CREATE INDEX "box_draws_created_idx" ON "box_draws" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "box_seeds_user_idx" ON "box_seeds" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "box_seeds_one_active" ON "box_seeds" USING btree ("user_id") WHERE "box_seeds"."revealed_at" is null;