CREATE TABLE "feed_exchanges" (
	"exchange" text PRIMARY KEY NOT NULL,
	"connected" boolean NOT NULL,
	"last_trade_at" timestamp with time zone,
	"reconnects" integer DEFAULT 0 NOT NULL,
	"malformed_frames" integer DEFAULT 0 NOT NULL,
	"coins" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "reconciliation_runs" (
	"id" serial PRIMARY KEY NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone NOT NULL,
	"process" text NOT NULL,
	"ok" boolean NOT NULL,
	"checked_balances" integer NOT NULL,
	"mismatches" jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "review_claims" (
	"kind" text NOT NULL,
	"item_id" integer NOT NULL,
	"operator_id" integer NOT NULL,
	"claimed_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "review_claims_kind_item_id_pk" PRIMARY KEY("kind","item_id"),
	CONSTRAINT "review_claims_kind_known" CHECK ("review_claims"."kind" in ('recharge', 'withdrawal', 'certification'))
);
--> statement-breakpoint
CREATE TABLE "server_processes" (
	"id" text PRIMARY KEY NOT NULL,
	"host" text NOT NULL,
	"pid" integer NOT NULL,
	"version" text NOT NULL,
	"build" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL,
	"stopped_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "service_answering" (
	"conversation_id" integer NOT NULL,
	"operator_id" integer NOT NULL,
	"until" timestamp with time zone NOT NULL,
	CONSTRAINT "service_answering_conversation_id_operator_id_pk" PRIMARY KEY("conversation_id","operator_id")
);
--> statement-breakpoint
CREATE TABLE "service_notes" (
	"id" serial PRIMARY KEY NOT NULL,
	"conversation_id" integer NOT NULL,
	"operator_id" integer NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "review_claims" ADD CONSTRAINT "review_claims_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_answering" ADD CONSTRAINT "service_answering_conversation_id_service_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."service_conversations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_answering" ADD CONSTRAINT "service_answering_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_notes" ADD CONSTRAINT "service_notes_conversation_id_service_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."service_conversations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_notes" ADD CONSTRAINT "service_notes_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "reconciliation_runs_started_idx" ON "reconciliation_runs" USING btree ("started_at");--> statement-breakpoint
CREATE INDEX "service_notes_conversation_idx" ON "service_notes" USING btree ("conversation_id","id");