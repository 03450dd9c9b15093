CREATE TABLE "rate_counters" (
	"key" text PRIMARY KEY NOT NULL,
	"count" integer NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_secret_expires_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "rate_counters_expires_at" ON "rate_counters" USING btree ("expires_at");--> statement-breakpoint
-- Links mailed before links expired: a full day from now, like a fresh one (EMAIL_VERIFY_HOURS' default).
UPDATE "users" SET "email_secret_expires_at" = now() + interval '24 hours'
  WHERE "email_secret_hash" IS NOT NULL AND NOT "email_verified";
