ALTER TABLE "results_service"."results" DROP COLUMN "correct_count";--> statement-breakpoint
ALTER TABLE "results_service"."results" DROP COLUMN "graded_count";--> statement-breakpoint
ALTER TABLE "results_service"."results" DROP COLUMN "is_graded";--> statement-breakpoint
ALTER TABLE "results_service"."grade_history" ADD CONSTRAINT "grade_history_kind_known" CHECK ("results_service"."grade_history"."kind" in ('grade', 'regrade', 'release', 'unrelease'));--> statement-breakpoint
ALTER TABLE "results_service"."results" ADD CONSTRAINT "results_status_known" CHECK ("results_service"."results"."status" in ('pending', 'graded', 'released'));