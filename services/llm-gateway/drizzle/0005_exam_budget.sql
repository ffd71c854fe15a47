CREATE TABLE "llm_gateway"."exam_usage" (
	"exam_id" text PRIMARY KEY NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"tokens" bigint DEFAULT 0 NOT NULL,
	"refused_exam_requests" integer DEFAULT 0 NOT NULL,
	"refused_exam_tokens" integer DEFAULT 0 NOT NULL,
	"refused_attempt_messages" integer DEFAULT 0 NOT NULL,
	"refused_attempt_tokens" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE TABLE "llm_gateway"."exam_usage_minutes" (
	"exam_id" text NOT NULL,
	"minute" timestamp with time zone NOT NULL,
	"requests" bigint DEFAULT 0 NOT NULL,
	"tokens" bigint DEFAULT 0 NOT NULL,
	"refused_exam_requests" integer DEFAULT 0 NOT NULL,
	"refused_exam_tokens" integer DEFAULT 0 NOT NULL,
	"refused_attempt_messages" integer DEFAULT 0 NOT NULL,
	"refused_attempt_tokens" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "exam_usage_minutes_exam_id_minute_pk" PRIMARY KEY("exam_id","minute")
);
--> statement-breakpoint
ALTER TABLE "llm_gateway"."messages" ADD COLUMN "is_withheld" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "llm_gateway"."messages" ADD COLUMN "withheld_question_index" integer;