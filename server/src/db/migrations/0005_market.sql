CREATE TABLE "graph_unlocks" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"entry_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "market_offers" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "market_offers_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"user_id" bigint NOT NULL,
	"item_type" text NOT NULL,
	"side" text NOT NULL,
	"price" bigint NOT NULL,
	"quantity" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "market_offers_side" CHECK ("market_offers"."side" IN ('BUY', 'SELL')),
	CONSTRAINT "market_offers_price_positive" CHECK ("market_offers"."price" > 0),
	CONSTRAINT "market_offers_quantity_positive" CHECK ("market_offers"."quantity" > 0)
);
--> statement-breakpoint
CREATE TABLE "trades" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "trades_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"item_type" text NOT NULL,
	"price" bigint NOT NULL,
	"quantity" integer NOT NULL,
	"buyer_id" bigint NOT NULL,
	"seller_id" bigint NOT NULL,
	"fee" bigint NOT NULL,
	"taker_side" text NOT NULL,
	"entry_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "trades_price_positive" CHECK ("trades"."price" > 0),
	CONSTRAINT "trades_quantity_positive" CHECK ("trades"."quantity" > 0),
	CONSTRAINT "trades_not_self" CHECK ("trades"."buyer_id" <> "trades"."seller_id")
);
--> statement-breakpoint
ALTER TABLE "graph_unlocks" ADD CONSTRAINT "graph_unlocks_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "graph_unlocks" ADD CONSTRAINT "graph_unlocks_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "market_offers" ADD CONSTRAINT "market_offers_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_buyer_id_users_id_fk" FOREIGN KEY ("buyer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_seller_id_users_id_fk" FOREIGN KEY ("seller_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trades" ADD CONSTRAINT "trades_entry_id_journal_entries_id_fk" FOREIGN KEY ("entry_id") REFERENCES "public"."journal_entries"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "market_offers_one_per_side" ON "market_offers" USING btree ("user_id","item_type","side");--> statement-breakpoint
CREATE INDEX "market_offers_asks" ON "market_offers" USING btree ("item_type","price","created_at","id") WHERE "market_offers"."side" = 'SELL';--> statement-breakpoint
CREATE INDEX "market_offers_bids" ON "market_offers" USING btree ("item_type","price" DESC NULLS LAST,"created_at","id") WHERE "market_offers"."side" = 'BUY';--> statement-breakpoint
CREATE INDEX "trades_item" ON "trades" USING btree ("item_type","created_at");--> statement-breakpoint
CREATE INDEX "trades_buyer" ON "trades" USING btree ("buyer_id","created_at");--> statement-breakpoint
CREATE INDEX "trades_seller" ON "trades" USING btree ("seller_id","created_at");