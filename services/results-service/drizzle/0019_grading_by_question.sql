CREATE TABLE "results_service"."answer_group_detachments" (
	"exam_id" text NOT NULL,
	"question_index" integer NOT NULL,
	"result_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	CONSTRAINT "answer_group_detachments_exam_id_question_index_result_id_pk" PRIMARY KEY("exam_id","question_index","result_id")
);
--> statement-breakpoint
CREATE TABLE "results_service"."grading_suggestions" (
	"id" text PRIMARY KEY NOT NULL,
	"result_id" text NOT NULL,
	"exam_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"question_index" integer NOT NULL,
	"answer_hash" text NOT NULL,
	"points" numeric(12, 2) NOT NULL,
	"rubric" jsonb NOT NULL,
	"rationale" text NOT NULL,
	"quote" text NOT NULL,
	"uncertain" boolean NOT NULL,
	"sample_points" jsonb NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"input_tokens" integer NOT NULL,
	"output_tokens" integer NOT NULL,
	"batch_id" text,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "results_service"."suggestion_batches" (
	"id" text PRIMARY KEY NOT NULL,
	"exam_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"question_index" integer NOT NULL,
	"status" text NOT NULL,
	"scope" text NOT NULL,
	"result_ids" jsonb NOT NULL,
	"concurrency" integer NOT NULL,
	"samples" integer NOT NULL,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_failed" integer DEFAULT 0 NOT NULL,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"error" text,
	"started_by" text NOT NULL,
	"lease_owner" text,
	"lease_until" timestamp with time zone,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "suggestion_batches_status_known" CHECK ("results_service"."suggestion_batches"."status" in ('running', 'completed', 'cancelled', 'failed', 'budget-exhausted', 'interrupted'))
);
--> statement-breakpoint
ALTER TABLE "results_service"."grade_history" ADD COLUMN "suggestion_id" text;--> statement-breakpoint
ALTER TABLE "results_service"."grade_history" ADD COLUMN "suggestion" text;--> statement-breakpoint
CREATE INDEX "grading_suggestions_result_idx" ON "results_service"."grading_suggestions" USING btree ("result_id","question_index","created_at");--> statement-breakpoint
CREATE INDEX "grading_suggestions_exam_idx" ON "results_service"."grading_suggestions" USING btree ("exam_id","question_index");--> statement-breakpoint
CREATE INDEX "suggestion_batches_exam_idx" ON "results_service"."suggestion_batches" USING btree ("exam_id","question_index","started_at");--> statement-breakpoint
CREATE INDEX "suggestion_batches_running_idx" ON "results_service"."suggestion_batches" USING btree ("lease_until") WHERE "results_service"."suggestion_batches"."status" = 'running';--> statement-breakpoint
CREATE UNIQUE INDEX "suggestion_batches_one_running_idx" ON "results_service"."suggestion_batches" USING btree ("exam_id","question_index") WHERE "results_service"."suggestion_batches"."status" = 'running';--> statement-breakpoint
ALTER TABLE "results_service"."grade_history" ADD CONSTRAINT "grade_history_suggestion_known" CHECK ("results_service"."grade_history"."suggestion" is null or "results_service"."grade_history"."suggestion" in ('accepted', 'edited'));