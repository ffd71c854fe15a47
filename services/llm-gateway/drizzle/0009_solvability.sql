CREATE TABLE "llm_gateway"."solvability_checks" (
	"id" text PRIMARY KEY NOT NULL,
	"exam_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"status" text NOT NULL,
	"phrasings_per_question" integer NOT NULL,
	"max_calls" integer NOT NULL,
	"max_tokens" integer NOT NULL,
	"calls_used" integer DEFAULT 0 NOT NULL,
	"tokens_used" integer DEFAULT 0 NOT NULL,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer DEFAULT 0 NOT NULL,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"error" text,
	"lease_owner" text NOT NULL,
	"lease_expires_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "solvability_checks_exam_started_idx" ON "llm_gateway"."solvability_checks" USING btree ("exam_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "solvability_checks_one_running_idx" ON "llm_gateway"."solvability_checks" USING btree ("exam_id") WHERE "llm_gateway"."solvability_checks"."status" = 'running';