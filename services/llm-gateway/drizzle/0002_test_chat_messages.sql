CREATE TABLE "llm_gateway"."test_chat_messages" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"creator_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "test_chat_messages_creator_time_idx" ON "llm_gateway"."test_chat_messages" USING btree ("creator_id","created_at");