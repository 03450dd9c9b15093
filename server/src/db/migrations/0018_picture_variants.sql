ALTER TABLE "pictures" ADD COLUMN "variant_widths" integer[];--> statement-breakpoint
ALTER TABLE "pictures" ADD COLUMN "placeholder" text;