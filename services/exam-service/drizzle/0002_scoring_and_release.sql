ALTER TABLE "exam_service"."exams" ADD COLUMN "rubrics" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_service"."exams" ADD COLUMN "release_policy" text DEFAULT 'on-release' NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_service"."exams" ADD COLUMN "show_answer_keys" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Questions stored before points existed are worth 1 point each (the read path applies the same default).
UPDATE "exam_service"."exams" SET "questions" = (
  SELECT coalesce(jsonb_agg(CASE WHEN q ? 'points' THEN q ELSE q || '{"points": 1}'::jsonb END ORDER BY ord), '[]'::jsonb)
  FROM jsonb_array_elements("questions") WITH ORDINALITY AS e(q, ord)
) WHERE EXISTS (SELECT 1 FROM jsonb_array_elements("questions") AS e(q) WHERE NOT q ? 'points');
