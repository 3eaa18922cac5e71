-- Change notices for the server processes' in-memory answers (src/server/db/changes.ts): every
-- write to a table they keep, whoever makes it (a server, `npm run ops`, psql), tells every
-- listening process on commit. Public tables say only their name; per-user tables add the ids.
CREATE FUNCTION notify_table_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('coinvest_changes', TG_TABLE_NAME);
  RETURN NULL;
END $$;
--> statement-breakpoint
-- TG_ARGV[0]: the column naming the user. A statement touching very many users says the table only.
CREATE FUNCTION notify_rows_changed() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  ids text;
BEGIN
  EXECUTE format('SELECT string_agg(DISTINCT %I::text, '','') FROM changed_rows', TG_ARGV[0]) INTO ids;
  IF ids IS NOT NULL THEN
    PERFORM pg_notify('coinvest_changes', CASE WHEN length(ids) > 7000 THEN TG_TABLE_NAME ELSE TG_TABLE_NAME || ':' || ids END);
  END IF;
  RETURN NULL;
END $$;
--> statement-breakpoint
CREATE TRIGGER config_entries_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON config_entries FOR EACH STATEMENT EXECUTE FUNCTION notify_table_changed();
--> statement-breakpoint
CREATE TRIGGER slides_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON slides FOR EACH STATEMENT EXECUTE FUNCTION notify_table_changed();
--> statement-breakpoint
CREATE TRIGGER option_products_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON option_products FOR EACH STATEMENT EXECUTE FUNCTION notify_table_changed();
--> statement-breakpoint
CREATE TRIGGER coins_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON coins FOR EACH STATEMENT EXECUTE FUNCTION notify_table_changed();
--> statement-breakpoint
CREATE TRIGGER fiat_rates_changed AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON fiat_rates FOR EACH STATEMENT EXECUTE FUNCTION notify_table_changed();
--> statement-breakpoint
CREATE TRIGGER sessions_ended AFTER UPDATE ON sessions REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_rows_changed('user_id');
--> statement-breakpoint
CREATE TRIGGER sessions_deleted AFTER DELETE ON sessions REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_rows_changed('user_id');
--> statement-breakpoint
CREATE TRIGGER sessions_truncated AFTER TRUNCATE ON sessions FOR EACH STATEMENT EXECUTE FUNCTION notify_table_changed();
--> statement-breakpoint
CREATE TRIGGER users_updated AFTER UPDATE ON users REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_rows_changed('id');
--> statement-breakpoint
CREATE TRIGGER users_deleted AFTER DELETE ON users REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_rows_changed('id');
--> statement-breakpoint
CREATE TRIGGER users_truncated AFTER TRUNCATE ON users FOR EACH STATEMENT EXECUTE FUNCTION notify_table_changed();
--> statement-breakpoint
CREATE TRIGGER balances_inserted AFTER INSERT ON balances REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_rows_changed('user_id');
--> statement-breakpoint
CREATE TRIGGER balances_updated AFTER UPDATE ON balances REFERENCING NEW TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_rows_changed('user_id');
--> statement-breakpoint
CREATE TRIGGER balances_deleted AFTER DELETE ON balances REFERENCING OLD TABLE AS changed_rows FOR EACH STATEMENT EXECUTE FUNCTION notify_rows_changed('user_id');
--> statement-breakpoint
CREATE TRIGGER balances_truncated AFTER TRUNCATE ON balances FOR EACH STATEMENT EXECUTE FUNCTION notify_table_changed();
