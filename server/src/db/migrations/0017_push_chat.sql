-- When each user was last pushed about the chat: at most one CHAT push per user per 10 minutes (docs/decisions.md
-- "Issue 27: which events push").
CREATE TABLE "push_chat_sent" (
	"user_id" bigint PRIMARY KEY NOT NULL,
	"sent_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "push_chat_sent" ADD CONSTRAINT "push_chat_sent_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;