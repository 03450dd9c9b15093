DROP INDEX "item_postings_entry";--> statement-breakpoint
DROP INDEX "item_postings_owner";