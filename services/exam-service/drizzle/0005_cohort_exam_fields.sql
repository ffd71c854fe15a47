ALTER TABLE "exam_service"."exams" ADD COLUMN "opens_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "exam_service"."exams" ADD COLUMN "closes_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "exam_service"."exams" ADD COLUMN "attempts_allowed" integer DEFAULT 1 NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_service"."exams" ADD COLUMN "keep_grade" text DEFAULT 'highest' NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_service"."exams" ADD COLUMN "shuffle_questions" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_service"."exams" ADD COLUMN "shuffle_options" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_service"."exams" ADD COLUMN "access" text DEFAULT 'link' NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_service"."exams" ADD COLUMN "access_code_hash" text;--> statement-breakpoint
ALTER TABLE "exam_service"."exams" ADD COLUMN "pools" jsonb DEFAULT '[]'::jsonb NOT NULL;