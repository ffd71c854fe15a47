CREATE TABLE "results_service"."lti_score_syncs" (
	"result_id" text PRIMARY KEY NOT NULL,
	"attempt_id" text NOT NULL,
	"exam_id" text NOT NULL,
	"state" text NOT NULL,
	"tries" integer DEFAULT 0 NOT NULL,
	"next_try_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"score_given" numeric(12, 2),
	"score_maximum" numeric(12, 2) NOT NULL,
	"scored_at" timestamp with time zone NOT NULL,
	"synced_at" timestamp with time zone,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "lti_score_syncs_state_known" CHECK ("results_service"."lti_score_syncs"."state" in ('pending', 'sent', 'failed'))
);
--> statement-breakpoint
ALTER TABLE "results_service"."attempts" ADD COLUMN "lti" jsonb;--> statement-breakpoint
CREATE INDEX "lti_score_syncs_due_idx" ON "results_service"."lti_score_syncs" USING btree ("next_try_at") WHERE "results_service"."lti_score_syncs"."state" = 'pending';--> statement-breakpoint
CREATE INDEX "lti_score_syncs_exam_idx" ON "results_service"."lti_score_syncs" USING btree ("exam_id");