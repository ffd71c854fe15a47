CREATE TABLE "results_service"."exam_keep_grades" (
	"exam_id" text PRIMARY KEY NOT NULL,
	"keep_grade" text NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "results_service"."overrides" (
	"exam_id" text NOT NULL,
	"candidate_key" text NOT NULL,
	"student_id" text NOT NULL,
	"extra_minutes" integer,
	"time_factor" double precision,
	"opens_at" timestamp with time zone,
	"closes_at" timestamp with time zone,
	"attempts_allowed" integer,
	"updated_at" timestamp with time zone NOT NULL,
	"updated_by" text NOT NULL,
	CONSTRAINT "overrides_exam_id_candidate_key_pk" PRIMARY KEY("exam_id","candidate_key")
);
--> statement-breakpoint
DROP INDEX "results_service"."attempts_exam_candidate_idx";--> statement-breakpoint
ALTER TABLE "results_service"."attempts" ADD COLUMN "attempt_no" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "attempts_exam_candidate_no_idx" ON "results_service"."attempts" USING btree ("exam_id","candidate_key","attempt_no");