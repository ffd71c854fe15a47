CREATE TABLE "results_service"."follow_up_questions" (
	"attempt_id" text NOT NULL,
	"n" integer NOT NULL,
	"question_index" integer NOT NULL,
	"text" text NOT NULL,
	"asked_at" timestamp with time zone,
	"deadline" timestamp with time zone,
	"answer" text DEFAULT '' NOT NULL,
	"seq" integer DEFAULT 0 NOT NULL,
	"answered_at" timestamp with time zone,
	"timed_out" boolean DEFAULT false NOT NULL,
	"mark_level" integer,
	"mark_points" double precision,
	"feedback" text DEFAULT '' NOT NULL,
	"marked_by" text,
	"marked_at" timestamp with time zone,
	CONSTRAINT "follow_up_questions_attempt_id_n_pk" PRIMARY KEY("attempt_id","n")
);
--> statement-breakpoint
CREATE TABLE "results_service"."follow_ups" (
	"attempt_id" text PRIMARY KEY NOT NULL,
	"exam_id" text NOT NULL,
	"result_id" text NOT NULL,
	"status" text NOT NULL,
	"note" text,
	"count" integer NOT NULL,
	"seconds_per_question" integer NOT NULL,
	"rubric" jsonb NOT NULL,
	"generating_until" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone,
	CONSTRAINT "follow_ups_status_known" CHECK ("results_service"."follow_ups"."status" in ('pending', 'asking', 'done', 'skipped'))
);
--> statement-breakpoint
ALTER TABLE "results_service"."follow_up_questions" ADD CONSTRAINT "follow_up_questions_attempt_id_follow_ups_attempt_id_fk" FOREIGN KEY ("attempt_id") REFERENCES "results_service"."follow_ups"("attempt_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "follow_ups_result_idx" ON "results_service"."follow_ups" USING btree ("result_id");