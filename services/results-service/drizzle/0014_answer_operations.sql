CREATE TABLE "results_service"."answer_operations" (
	"attempt_id" text NOT NULL,
	"question_index" integer NOT NULL,
	"start" integer NOT NULL,
	"end" integer NOT NULL,
	"ops" jsonb NOT NULL,
	"bytes" integer NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "answer_operations_attempt_id_question_index_start_pk" PRIMARY KEY("attempt_id","question_index","start"),
	CONSTRAINT "answer_operations_range" CHECK ("results_service"."answer_operations"."end" > "results_service"."answer_operations"."start")
);
--> statement-breakpoint
ALTER TABLE "results_service"."answers" ADD COLUMN "operations_end" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "results_service"."attempts" ADD COLUMN "operations_bytes" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "results_service"."attempts" ADD COLUMN "operations_capped_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "results_service"."results" ADD COLUMN "process" jsonb;