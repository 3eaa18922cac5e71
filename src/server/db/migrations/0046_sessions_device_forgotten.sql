-- Ending one session from another device forgets that device (domain/sessions.ts): the session keeps the nonce of
-- the remembered-device token given with it, and when it was ended so.
ALTER TABLE "sessions" ADD COLUMN "device_nonce" text;--> statement-breakpoint
ALTER TABLE "sessions" ADD COLUMN "device_forgotten_at" timestamp with time zone;