CREATE TABLE "workspace_orchestrator"."start_failures" (
	"attempt_id" text PRIMARY KEY NOT NULL,
	"exam_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"reason" text NOT NULL,
	"failures" integer NOT NULL,
	"first_failed_at" timestamp with time zone NOT NULL,
	"last_failed_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "start_failures_exam_idx" ON "workspace_orchestrator"."start_failures" USING btree ("exam_id");