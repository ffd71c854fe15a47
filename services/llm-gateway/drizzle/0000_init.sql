CREATE SCHEMA "llm_gateway";
--> statement-breakpoint
CREATE TABLE "llm_gateway"."conversations" (
	"attempt_id" text PRIMARY KEY NOT NULL,
	"exam_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"tokens_used" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "llm_gateway"."messages" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"attempt_id" text NOT NULL,
	"role" text NOT NULL,
	"content" text NOT NULL,
	"attachment_text" text DEFAULT '' NOT NULL,
	"files" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"question_index" integer,
	"is_error" boolean DEFAULT false NOT NULL,
	"is_partial" boolean DEFAULT false NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "llm_gateway"."messages" ADD CONSTRAINT "messages_attempt_id_conversations_attempt_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "llm_gateway"."conversations"("attempt_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversations_exam_idx" ON "llm_gateway"."conversations" USING btree ("exam_id");--> statement-breakpoint
CREATE INDEX "messages_attempt_seq_idx" ON "llm_gateway"."messages" USING btree ("attempt_id","seq");--> statement-breakpoint
CREATE INDEX "messages_attempt_role_time_idx" ON "llm_gateway"."messages" USING btree ("attempt_id","role","created_at");