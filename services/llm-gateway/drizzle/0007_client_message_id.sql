ALTER TABLE "llm_gateway"."messages" ADD COLUMN "client_message_id" text;--> statement-breakpoint
ALTER TABLE "llm_gateway"."messages" ADD COLUMN "try_id" text;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_attempt_client_message_idx" ON "llm_gateway"."messages" USING btree ("attempt_id","client_message_id") WHERE "llm_gateway"."messages"."role" = 'user';