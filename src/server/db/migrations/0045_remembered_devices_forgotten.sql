-- Ending the other sessions forgets every device remembered as having passed the second factor (domain/two-factor.ts):
-- a remembered device's token is bound to the later of two-factor's start and this moment.
ALTER TABLE "two_factors" ADD COLUMN "devices_forgotten_at" timestamp with time zone;