CREATE TABLE "workspace_orchestrator"."code_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"purpose" text NOT NULL,
	"creator_id" text,
	"attempt_id" text,
	"exam_id" text,
	"question_index" integer,
	"language" text NOT NULL,
	"job" jsonb NOT NULL,
	"state" text NOT NULL,
	"outcome" jsonb,
	"claims" integer DEFAULT 0 NOT NULL,
	"lease_until" timestamp with time zone,
	"queued_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "code_runs_state_queued_idx" ON "workspace_orchestrator"."code_runs" USING btree ("state","queued_at");--> statement-breakpoint
CREATE INDEX "code_runs_creator_idx" ON "workspace_orchestrator"."code_runs" USING btree ("creator_id","queued_at");--> statement-breakpoint
CREATE INDEX "code_runs_finished_idx" ON "workspace_orchestrator"."code_runs" USING btree ("finished_at");