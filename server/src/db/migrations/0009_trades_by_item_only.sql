DROP INDEX "trades_buyer";--> statement-breakpoint
DROP INDEX "trades_seller";