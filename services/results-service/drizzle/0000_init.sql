CREATE SCHEMA "results_service";
--> statement-breakpoint
CREATE TABLE "results_service"."answer_files" (
	"attempt_id" text NOT NULL,
	"question_index" integer NOT NULL,
	"file_name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"uploaded_at" timestamp with time zone NOT NULL,
	CONSTRAINT "answer_files_attempt_id_question_index_pk" PRIMARY KEY("attempt_id","question_index")
);
--> statement-breakpoint
CREATE TABLE "results_service"."answers" (
	"attempt_id" text NOT NULL,
	"question_index" integer NOT NULL,
	"answer" text NOT NULL,
	"seq" bigint NOT NULL,
	"updated_at" timestamp with time zone NOT NULL,
	CONSTRAINT "answers_attempt_id_question_index_pk" PRIMARY KEY("attempt_id","question_index")
);
--> statement-breakpoint
CREATE TABLE "results_service"."attempts" (
	"id" text PRIMARY KEY NOT NULL,
	"exam_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"student_id" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"deadline" timestamp with time zone,
	"submitted_at" timestamp with time zone,
	"result_id" text,
	"exam_snapshot" jsonb NOT NULL,
	"question_count" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "results_service"."events" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "results_service"."events_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"attempt_id" text NOT NULL,
	"type" text NOT NULL,
	"question_index" integer,
	"detail" text,
	"client_at" text,
	"recorded_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "results_service"."results" (
	"id" text PRIMARY KEY NOT NULL,
	"attempt_id" text NOT NULL,
	"exam_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"exam_title" text NOT NULL,
	"user_name" text NOT NULL,
	"student_id" text NOT NULL,
	"total_questions" integer NOT NULL,
	"answered_count" integer NOT NULL,
	"correct_count" integer NOT NULL,
	"graded_count" integer NOT NULL,
	"score" integer,
	"is_graded" boolean NOT NULL,
	"graded_at" timestamp with time zone,
	"time_spent" integer NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone NOT NULL,
	"grades" jsonb NOT NULL,
	"workspace_files" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "attempts_exam_student_idx" ON "results_service"."attempts" USING btree ("exam_id","student_id");--> statement-breakpoint
CREATE INDEX "attempts_owner_idx" ON "results_service"."attempts" USING btree ("owner_id","exam_id");--> statement-breakpoint
CREATE INDEX "attempts_open_deadline_idx" ON "results_service"."attempts" USING btree ("deadline") WHERE "results_service"."attempts"."submitted_at" is null and "results_service"."attempts"."deadline" is not null;--> statement-breakpoint
CREATE INDEX "events_attempt_idx" ON "results_service"."events" USING btree ("attempt_id","recorded_at");--> statement-breakpoint
CREATE UNIQUE INDEX "results_attempt_idx" ON "results_service"."results" USING btree ("attempt_id");--> statement-breakpoint
CREATE INDEX "results_owner_idx" ON "results_service"."results" USING btree ("owner_id","completed_at");--> statement-breakpoint
CREATE INDEX "results_exam_idx" ON "results_service"."results" USING btree ("exam_id");