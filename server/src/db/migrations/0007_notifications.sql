ALTER TABLE "notification_events" ADD COLUMN "target" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_events" ADD COLUMN "fold" bigint;--> statement-breakpoint
CREATE INDEX "notification_events_unseen" ON "notification_events" USING btree ("user_id","topic","target","id") WHERE NOT "notification_events"."seen";--> statement-breakpoint
CREATE INDEX "notification_events_recent" ON "notification_events" USING btree ("user_id","id") WHERE NOT "notification_events"."seen";--> statement-breakpoint
CREATE INDEX "notification_events_read" ON "notification_events" USING btree ("user_id","fold") WHERE "notification_events"."seen";