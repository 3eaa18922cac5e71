-- Four eyes on recharges: the first approval of a recharge worth more than FOUR_EYES_USDT, kept until a second,
-- different operator credits it (domain/operator-reviews.ts), as withdrawal_approvals does for withdrawals.
CREATE TABLE "recharge_approvals" (
	"recharge_id" integer NOT NULL,
	"operator" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "recharge_approvals_recharge_id_operator_pk" PRIMARY KEY("recharge_id","operator")
);
--> statement-breakpoint
ALTER TABLE "recharge_approvals" ADD CONSTRAINT "recharge_approvals_recharge_id_recharge_orders_id_fk" FOREIGN KEY ("recharge_id") REFERENCES "public"."recharge_orders"("id") ON DELETE no action ON UPDATE no action;