-- Orders keep the market index's constituents of the ticks they used (start and end of an option,
-- the fill of a contract order): the customer sees what each price was made of, and the ticks
-- themselves are thinned after 48 h. Null for the simulator.
ALTER TABLE "contract_orders" ADD COLUMN "tick_constituents" jsonb;--> statement-breakpoint
ALTER TABLE "option_orders" ADD COLUMN "start_constituents" jsonb;--> statement-breakpoint
ALTER TABLE "option_orders" ADD COLUMN "end_constituents" jsonb;