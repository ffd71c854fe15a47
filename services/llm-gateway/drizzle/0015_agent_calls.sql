CREATE TABLE "llm_gateway"."agent_calls" (
	"id" text PRIMARY KEY NOT NULL,
	"seq" bigserial NOT NULL,
	"attempt_id" text NOT NULL,
	"exam_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"session_id" text NOT NULL,
	"agent" text NOT NULL,
	"wire" text NOT NULL,
	"model" text NOT NULL,
	"status" text NOT NULL,
	"reason" text,
	"input" text DEFAULT '' NOT NULL,
	"tool_results" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"reply" text DEFAULT '' NOT NULL,
	"tool_calls" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"input_tokens" integer DEFAULT 0 NOT NULL,
	"output_tokens" integer DEFAULT 0 NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "agent_calls_attempt_idx" ON "llm_gateway"."agent_calls" USING btree ("attempt_id","seq");--> statement-breakpoint
CREATE INDEX "agent_calls_exam_idx" ON "llm_gateway"."agent_calls" USING btree ("exam_id");