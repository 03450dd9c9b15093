CREATE TABLE "inventories" (
	"user_id" bigint NOT NULL,
	"item_type" text NOT NULL,
	"quantity" integer DEFAULT 0 NOT NULL,
	"held" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "inventories_user_id_item_type_pk" PRIMARY KEY("user_id","item_type"),
	CONSTRAINT "inventories_quantity_nonneg" CHECK ("inventories"."quantity" >= 0),
	CONSTRAINT "inventories_held_within" CHECK ("inventories"."held" >= 0 AND "inventories"."held" <= "inventories"."quantity")
);
--> statement-breakpoint
CREATE TABLE "item_postings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "item_postings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"entry_id" bigint NOT NULL,
	"user_id" bigint,
	"item_type" text NOT NULL,
	"quantity" integer NOT NULL,
	CONSTRAINT "item_postings_quantity_nonzero" CHECK ("item_postings"."quantity" <> 0)
);
--> statement-breakpoint
CREATE TABLE "fair_seeds" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "fair_seeds_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"server_seed" text NOT NULL,
	"server_seed_hash" text NOT NULL,
	"client_seed" text NOT NULL,
	"next_nonce" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"revealed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "lootbox_openings" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "lootbox_openings_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"seed_id" bigint NOT NULL,
	"nonce" integer NOT NULL,
	"client_seed" text NOT NULL,
	"odds_version" integer NOT NULL,
	"weights" jsonb NOT NULL,
	"loot_sequence" jsonb NOT NULL,
	"open_sequence" text NOT NULL,
	"loot_found" boolean NOT NULL,
	"opened_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inventories" ADD CONSTRAINT "inventories_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_postings" ADD CONSTRAINT "item_postings_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "item_postings" ADD CONSTRAINT "item_postings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "fair_seeds" ADD CONSTRAINT "fair_seeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lootbox_openings" ADD CONSTRAINT "lootbox_openings_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "lootbox_openings" ADD CONSTRAINT "lootbox_openings_seed_id_fair_seeds_id_fk" FOREIGN KEY ("seed_id") REFERENCES "public"."fair_seeds"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "inventories_item" ON "inventories" USING btree ("item_type");--> statement-breakpoint
CREATE INDEX "item_postings_entry" ON "item_postings" USING btree ("entry_id");--> statement-breakpoint
CREATE INDEX "item_postings_owner" ON "item_postings" USING btree ("user_id","item_type");--> statement-breakpoint
CREATE UNIQUE INDEX "fair_seeds_in_use" ON "fair_seeds" USING btree ("user_id") WHERE "fair_seeds"."revealed_at" IS NULL;--> statement-breakpoint
CREATE INDEX "fair_seeds_user" ON "fair_seeds" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "lootbox_openings_user" ON "lootbox_openings" USING btree ("user_id","id");--> statement-breakpoint
CREATE UNIQUE INDEX "lootbox_openings_seed_nonce" ON "lootbox_openings" USING btree ("seed_id","nonce");