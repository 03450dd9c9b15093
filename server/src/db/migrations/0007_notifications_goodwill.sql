CREATE TABLE "goodwill_batches" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "goodwill_batches_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"cause" text NOT NULL,
	"amount" bigint NOT NULL,
	"forwarded_on" timestamp with time zone NOT NULL,
	"reference" text NOT NULL,
	"entry_id" bigint,
	CONSTRAINT "goodwill_batches_amount_positive" CHECK ("goodwill_batches"."amount" > 0)
);
--> statement-breakpoint
CREATE TABLE "goodwill_shares" (
	"posting_id" bigint PRIMARY KEY NOT NULL,
	"batch_id" bigint NOT NULL
);
--> statement-breakpoint
ALTER TABLE "notification_events" ADD COLUMN "target" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "notification_events" ADD COLUMN "fold" bigint;--> statement-breakpoint
ALTER TABLE "goodwill_batches" ADD CONSTRAINT "goodwill_batches_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goodwill_shares" ADD CONSTRAINT "goodwill_shares_posting_id_postings_id_fk" FOREIGN KEY ("posting_id") REFERENCES "public"."postings"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "goodwill_shares" ADD CONSTRAINT "goodwill_shares_batch_id_goodwill_batches_id_fk" FOREIGN KEY ("batch_id") REFERENCES "public"."goodwill_batches"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "goodwill_batches_cause" ON "goodwill_batches" USING btree ("cause");--> statement-breakpoint
CREATE INDEX "goodwill_shares_batch" ON "goodwill_shares" USING btree ("batch_id");--> statement-breakpoint
CREATE INDEX "notification_events_unseen" ON "notification_events" USING btree ("user_id","topic","target","id") WHERE NOT "notification_events"."seen";--> statement-breakpoint
CREATE INDEX "notification_events_recent" ON "notification_events" USING btree ("user_id","id") WHERE NOT "notification_events"."seen";--> statement-breakpoint
CREATE INDEX "notification_events_read" ON "notification_events" USING btree ("user_id","fold") WHERE "notification_events"."seen";--> statement-breakpoint
UPDATE "notification_events" SET "target" = CASE
  WHEN "topic" IN ('ITEM_SOLD', 'ITEM_BOUGHT') THEN 'i:' || coalesce("item", '')
  WHEN "topic" = 'IMAGE_COMMENT_REACTED' THEN 'c:' || coalesce("comment_id"::text, '')
  WHEN "topic" = 'SYSTEM_MESSAGE' THEN 's:' || "id"::text
  ELSE 'p:' || coalesce("picture_id"::text, '')
END WHERE "target" = '';
