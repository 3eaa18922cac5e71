-- The customer's own idle limit on sessions (domain/session-idle.ts): 15 minutes, 1 hour, 1 day, 7 days or 30 days,
-- the default. Numbered 0034: 0032 and 0033 are taken by neighbouring work.
ALTER TABLE "users" ADD COLUMN "session_idle_minutes" integer DEFAULT 43200 NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD CONSTRAINT "users_session_idle_minutes_choice" CHECK ("users"."session_idle_minutes" in (15, 60, 1440, 10080, 43200));
