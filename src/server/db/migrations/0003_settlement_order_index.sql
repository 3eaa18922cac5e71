DROP INDEX "option_orders_due_idx";--> statement-breakpoint
CREATE INDEX "option_orders_due_idx" ON "option_orders" USING btree ("status","end_at","id");