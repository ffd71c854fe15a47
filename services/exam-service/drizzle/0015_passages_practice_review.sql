ALTER TABLE "exam_service"."exams" ADD COLUMN "passages" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_service"."exams" ADD COLUMN "practice" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_service"."exams" ADD COLUMN "review" jsonb DEFAULT '{"enabled":false,"closesAt":null,"showFeedback":true}'::jsonb NOT NULL;