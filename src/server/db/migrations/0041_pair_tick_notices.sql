-- A contract pair's tick changed (or a pair added or removed) tells every process, as the coins' changes do
-- (migration 0010): the process that records prices re-reads each coin's tick (market/feeds.ts). Only the tick: the
-- matching runs update matched_through every step, and that must not send a notice each time.
CREATE TRIGGER contract_pairs_tick_changed AFTER INSERT OR DELETE OR UPDATE OF price_decimals ON contract_pairs FOR EACH STATEMENT EXECUTE FUNCTION notify_table_changed();
