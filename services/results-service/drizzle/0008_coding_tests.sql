CREATE TABLE "results_service"."test_gradings" (
	"result_id" text NOT NULL,
	"attempt_id" text NOT NULL,
	"question_index" integer NOT NULL,
	"code" text NOT NULL,
	"run_id" text,
	"state" text NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"next_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "test_gradings_result_id_question_index_pk" PRIMARY KEY("result_id","question_index")
);
--> statement-breakpoint
CREATE TABLE "results_service"."test_runs" (
	"run_id" text PRIMARY KEY NOT NULL,
	"attempt_id" text NOT NULL,
	"question_index" integer NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "results_service"."grade_history" DROP CONSTRAINT "grade_history_kind_known";--> statement-breakpoint
ALTER TABLE "results_service"."grade_history" ADD COLUMN "reason" text;--> statement-breakpoint
CREATE INDEX "test_gradings_due_idx" ON "results_service"."test_gradings" USING btree ("next_at") WHERE "results_service"."test_gradings"."state" in ('queued', 'running');--> statement-breakpoint
CREATE INDEX "test_runs_attempt_idx" ON "results_service"."test_runs" USING btree ("attempt_id");--> statement-breakpoint
ALTER TABLE "results_service"."grade_history" ADD CONSTRAINT "grade_history_kind_known" CHECK ("results_service"."grade_history"."kind" in ('grade', 'regrade', 'release', 'unrelease', 'tests'));