CREATE TABLE "service_canned_replies" (
	"id" serial PRIMARY KEY NOT NULL,
	"title" text NOT NULL,
	"body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "service_conversations" (
	"id" serial PRIMARY KEY NOT NULL,
	"user_id" integer NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"assigned_to" integer,
	"waiting" boolean DEFAULT true NOT NULL,
	"customer_read_to" integer DEFAULT 0 NOT NULL,
	"last_message_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "service_conversations_user_id_unique" UNIQUE("user_id"),
	CONSTRAINT "service_conversations_status_known" CHECK ("service_conversations"."status" in ('open', 'closed'))
);
--> statement-breakpoint
CREATE TABLE "service_messages" (
	"id" serial PRIMARY KEY NOT NULL,
	"conversation_id" integer NOT NULL,
	"author" text NOT NULL,
	"operator_id" integer,
	"body" text DEFAULT '' NOT NULL,
	"picture" text,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "service_messages_author_known" CHECK ("service_messages"."author" in ('customer', 'operator')),
	CONSTRAINT "service_messages_not_empty" CHECK ("service_messages"."body" <> '' or "service_messages"."picture" is not null)
);
--> statement-breakpoint
ALTER TABLE "service_conversations" ADD CONSTRAINT "service_conversations_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_conversations" ADD CONSTRAINT "service_conversations_assigned_to_operators_id_fk" FOREIGN KEY ("assigned_to") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_messages" ADD CONSTRAINT "service_messages_conversation_id_service_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."service_conversations"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "service_messages" ADD CONSTRAINT "service_messages_operator_id_operators_id_fk" FOREIGN KEY ("operator_id") REFERENCES "public"."operators"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "service_conversations_inbox_idx" ON "service_conversations" USING btree ("status","waiting","last_message_at");--> statement-breakpoint
CREATE INDEX "service_messages_conversation_idx" ON "service_messages" USING btree ("conversation_id","id");