CREATE TABLE "content_translations" (
	"kind" text NOT NULL,
	"item" text NOT NULL,
	"lang" text NOT NULL,
	"title" text DEFAULT '' NOT NULL,
	"body" text DEFAULT '' NOT NULL,
	CONSTRAINT "content_translations_kind_item_lang_pk" PRIMARY KEY("kind","item","lang")
);
--> statement-breakpoint
-- The customers' config and slides are kept in memory per language (http/kept-answers.ts): a new or changed version drops them.
CREATE TRIGGER content_translations_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON content_translations FOR EACH STATEMENT EXECUTE FUNCTION notify_table_changed();
