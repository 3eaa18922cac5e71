-- When withdrawals to a bank card or wallet may start is fixed when it is saved, as its owner was told then: a later
-- change of PAYEE_COOLING_HOURS neither shortens nor lengthens a wait already promised (domain/payouts.ts). Payees
-- saved before this column keep the rule they had: their wait is the period configured now (null here).
ALTER TABLE "bank_cards" ADD COLUMN "usable_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "wallets" ADD COLUMN "usable_at" timestamp with time zone;