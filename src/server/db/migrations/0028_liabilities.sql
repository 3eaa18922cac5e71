CREATE TABLE "liability_leaves" (
	"root_id" integer NOT NULL,
	"position" integer NOT NULL,
	"user_id" integer NOT NULL,
	"leaf_id" text NOT NULL,
	"sums" jsonb NOT NULL,
	CONSTRAINT "liability_leaves_root_id_position_pk" PRIMARY KEY("root_id","position")
);
--> statement-breakpoint
CREATE TABLE "liability_nodes" (
	"root_id" integer NOT NULL,
	"level" integer NOT NULL,
	"position" integer NOT NULL,
	"hash" text NOT NULL,
	"sums" jsonb NOT NULL,
	CONSTRAINT "liability_nodes_root_id_level_position_pk" PRIMARY KEY("root_id","level","position")
);
--> statement-breakpoint
CREATE TABLE "liability_roots" (
	"id" serial PRIMARY KEY NOT NULL,
	"day" text,
	"cutoff_at" timestamp with time zone NOT NULL,
	"through_seq" bigint NOT NULL,
	"root_hash" text NOT NULL,
	"assets" jsonb NOT NULL,
	"totals" jsonb NOT NULL,
	"decimals" integer NOT NULL,
	"leaves" integer NOT NULL,
	"built_at" timestamp with time zone NOT NULL,
	"built_by" text NOT NULL
);
--> statement-breakpoint
CREATE TABLE "liability_salts" (
	"user_id" integer PRIMARY KEY NOT NULL,
	"salt" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "liability_leaves" ADD CONSTRAINT "liability_leaves_root_id_liability_roots_id_fk" FOREIGN KEY ("root_id") REFERENCES "public"."liability_roots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "liability_leaves" ADD CONSTRAINT "liability_leaves_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "liability_nodes" ADD CONSTRAINT "liability_nodes_root_id_liability_roots_id_fk" FOREIGN KEY ("root_id") REFERENCES "public"."liability_roots"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "liability_salts" ADD CONSTRAINT "liability_salts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "liability_leaves_user" ON "liability_leaves" USING btree ("root_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "liability_roots_day" ON "liability_roots" USING btree ("day");