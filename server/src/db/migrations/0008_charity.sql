CREATE TABLE "charity_links" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "charity_links_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sender_id" bigint NOT NULL,
	"link" text NOT NULL,
	"badge" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"decided" boolean DEFAULT false NOT NULL,
	"approved" boolean DEFAULT false NOT NULL,
	"amount" bigint,
	"charity_name" text,
	"admin_category" text,
	"rejection_reason" text,
	"publicly_visible" boolean DEFAULT false NOT NULL,
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	CONSTRAINT "charity_links_approved_decided" CHECK (NOT "charity_links"."approved" OR "charity_links"."decided"),
	CONSTRAINT "charity_links_amount" CHECK (("charity_links"."approved" AND "charity_links"."amount" > 0) OR (NOT "charity_links"."approved" AND "charity_links"."amount" IS NULL))
);
--> statement-breakpoint
CREATE TABLE "charity_options" (
	"kind" text NOT NULL,
	"value" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "charity_options_kind_value_pk" PRIMARY KEY("kind","value"),
	CONSTRAINT "charity_options_kind" CHECK ("charity_options"."kind" IN ('CATEGORY', 'NAME', 'REJECTION_REASON'))
);
--> statement-breakpoint
ALTER TABLE "charity_links" ADD CONSTRAINT "charity_links_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "charity_links" ADD CONSTRAINT "charity_links_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "charity_links_sender" ON "charity_links" USING btree ("sender_id","created_at");--> statement-breakpoint
CREATE INDEX "charity_links_newest" ON "charity_links" USING btree ("created_at","id");--> statement-breakpoint
CREATE INDEX "charity_links_public" ON "charity_links" USING btree ("created_at","id") WHERE "charity_links"."decided" AND "charity_links"."publicly_visible";--> statement-breakpoint
-- The admin console's default options (docs/product.md#charity: a fresh database holds them, not the demo seed).
INSERT INTO "charity_options" ("kind", "value") VALUES
  ('CATEGORY', 'Animal welfare'),
  ('CATEGORY', 'Education'),
  ('CATEGORY', 'Environment'),
  ('CATEGORY', 'Health'),
  ('CATEGORY', 'Human rights'),
  ('CATEGORY', 'Humanitarian aid'),
  ('CATEGORY', 'Open source'),
  ('CATEGORY', 'Poverty relief'),
  ('CATEGORY', 'Science'),
  ('CATEGORY', 'Other'),
  ('NAME', 'Against Malaria Foundation'),
  ('NAME', 'Amnesty International'),
  ('NAME', 'Doctors Without Borders'),
  ('NAME', 'GiveDirectly'),
  ('NAME', 'Red Cross'),
  ('NAME', 'UNICEF'),
  ('NAME', 'Wikimedia Foundation'),
  ('NAME', 'WWF'),
  ('REJECTION_REASON', 'The link does not show a donation.'),
  ('REJECTION_REASON', 'The donation does not quote your badge code.'),
  ('REJECTION_REASON', 'The donation could not be verified.'),
  ('REJECTION_REASON', 'This donation was already sent in another link.'),
  ('REJECTION_REASON', 'The recipient is not a registered charity.')
ON CONFLICT DO NOTHING;
