CREATE TABLE "chat_last_seen" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"seen_count" bigint NOT NULL,
	"seen_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "chat_messages" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "chat_messages_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"sender_id" bigint NOT NULL,
	"body" text NOT NULL,
	"cost" bigint NOT NULL,
	"unit_price" bigint NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "chat_messages_cost_positive" CHECK ("chat_messages"."cost" > 0)
);
--> statement-breakpoint
CREATE TABLE "chat_rooms" (
	"id" integer PRIMARY KEY NOT NULL,
	"message_count" bigint DEFAULT 0 NOT NULL,
	"unit_price" bigint DEFAULT 0 NOT NULL,
	"online_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "comment_reactions" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "comment_reactions_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"comment_id" bigint NOT NULL,
	"user_id" bigint NOT NULL,
	"reaction_type" text NOT NULL,
	"price" bigint NOT NULL,
	"reacted_at" timestamp with time zone NOT NULL,
	CONSTRAINT "comment_reactions_price_positive" CHECK ("comment_reactions"."price" > 0)
);
--> statement-breakpoint
CREATE TABLE "comments" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "comments_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"picture_id" bigint NOT NULL,
	"author_id" bigint NOT NULL,
	"response_to" bigint,
	"body" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"pinned_at" timestamp with time zone,
	CONSTRAINT "comments_reply_not_pinned" CHECK ("comments"."response_to" IS NULL OR "comments"."pinned_at" IS NULL)
);
--> statement-breakpoint
CREATE TABLE "reports" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "reports_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"reporter_id" bigint NOT NULL,
	"type" text NOT NULL,
	"message_id" bigint NOT NULL,
	"reason" text NOT NULL,
	"description" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "reports_type" CHECK ("reports"."type" IN ('COMMENT', 'CHAT'))
);
--> statement-breakpoint
ALTER TABLE "chat_last_seen" ADD CONSTRAINT "chat_last_seen_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "chat_messages" ADD CONSTRAINT "chat_messages_sender_id_users_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_reactions" ADD CONSTRAINT "comment_reactions_comment_id_comments_id_fk" FOREIGN KEY ("comment_id") REFERENCES "public"."comments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comment_reactions" ADD CONSTRAINT "comment_reactions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_picture_id_pictures_id_fk" FOREIGN KEY ("picture_id") REFERENCES "public"."pictures"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_author_id_users_id_fk" FOREIGN KEY ("author_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "comments" ADD CONSTRAINT "comments_response_to_comments_id_fk" FOREIGN KEY ("response_to") REFERENCES "public"."comments"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "reports" ADD CONSTRAINT "reports_reporter_id_users_id_fk" FOREIGN KEY ("reporter_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "chat_messages_created_at" ON "chat_messages" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "comment_reactions_comment" ON "comment_reactions" USING btree ("comment_id","id");--> statement-breakpoint
CREATE INDEX "comments_picture" ON "comments" USING btree ("picture_id","id");--> statement-breakpoint
CREATE INDEX "comments_replies" ON "comments" USING btree ("response_to","id");--> statement-breakpoint
CREATE UNIQUE INDEX "reports_once_per_user" ON "reports" USING btree ("reporter_id","type","message_id");--> statement-breakpoint
CREATE INDEX "reports_newest" ON "reports" USING btree ("created_at","id");