CREATE TABLE "user_blocks" (
	"blocker_id" bigint NOT NULL,
	"blocked_id" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "user_blocks_blocker_id_blocked_id_pk" PRIMARY KEY("blocker_id","blocked_id")
);
--> statement-breakpoint
CREATE TABLE "blocked_words" (
	"word" text PRIMARY KEY NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "moderation_appeals" (
	"decision_id" bigint PRIMARY KEY NOT NULL,
	"text" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"status" text DEFAULT 'PENDING' NOT NULL,
	"reasons" text,
	"decided_by" bigint,
	"decided_at" timestamp with time zone,
	CONSTRAINT "moderation_appeals_status" CHECK ("moderation_appeals"."status" IN ('PENDING', 'UPHELD', 'REVERSED'))
);
--> statement-breakpoint
CREATE TABLE "moderation_decisions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "moderation_decisions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"content_type" text NOT NULL,
	"content_id" bigint NOT NULL,
	"author_id" bigint NOT NULL,
	"action" text NOT NULL,
	"category" text NOT NULL,
	"reasons" text NOT NULL,
	"suspend_days" integer,
	"suspended_until" timestamp with time zone,
	"refunded" bigint DEFAULT 0 NOT NULL,
	"decided_by" bigint NOT NULL,
	"decided_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "moderation_decisions_type" CHECK ("moderation_decisions"."content_type" IN ('COMMENT', 'CHAT', 'PICTURE')),
	CONSTRAINT "moderation_decisions_action" CHECK ("moderation_decisions"."action" IN ('dismiss', 'remove')),
	CONSTRAINT "moderation_decisions_suspend" CHECK ("moderation_decisions"."suspend_days" IS NULL OR "moderation_decisions"."suspend_days" IN (0, 1, 7, 30)),
	CONSTRAINT "moderation_decisions_refunded" CHECK ("moderation_decisions"."refunded" >= 0)
);
--> statement-breakpoint
ALTER TABLE "reports" DROP CONSTRAINT "reports_type";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "suspended_for_good" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "comments" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "pictures" ADD COLUMN "removed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "user_blocks" ADD CONSTRAINT "user_blocks_blocker_id_users_id_fk" FOREIGN KEY ("blocker_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_blocks" ADD CONSTRAINT "user_blocks_blocked_id_users_id_fk" FOREIGN KEY ("blocked_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_appeals" ADD CONSTRAINT "moderation_appeals_decision_id_moderation_decisions_id_fk" FOREIGN KEY ("decision_id") REFERENCES "public"."moderation_decisions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_appeals" ADD CONSTRAINT "moderation_appeals_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "moderation_decisions" ADD CONSTRAINT "moderation_decisions_decided_by_users_id_fk" FOREIGN KEY ("decided_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "user_blocks_blocked" ON "user_blocks" USING btree ("blocked_id");--> statement-breakpoint
CREATE INDEX "moderation_appeals_pending" ON "moderation_appeals" USING btree ("status","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "moderation_decisions_once" ON "moderation_decisions" USING btree ("content_type","content_id");--> statement-breakpoint
CREATE INDEX "moderation_decisions_author" ON "moderation_decisions" USING btree ("author_id","id");--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_type" CHECK ("reports"."type" IN ('COMMENT', 'CHAT', 'PICTURE'));