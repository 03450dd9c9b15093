DROP INDEX "inventories_item";--> statement-breakpoint
CREATE INDEX "inventories_on_sale" ON "inventories" USING btree ("item_type") WHERE "inventories"."held" > 0;