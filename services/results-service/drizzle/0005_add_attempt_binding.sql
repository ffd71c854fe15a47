CREATE TABLE "results_service"."start_counters" (
	"bucket" text NOT NULL,
	"window_start" timestamp with time zone NOT NULL,
	"count" integer NOT NULL,
	CONSTRAINT "start_counters_bucket_window_start_pk" PRIMARY KEY("bucket","window_start")
);
--> statement-breakpoint
DROP INDEX "results_service"."attempts_exam_student_idx";--> statement-breakpoint
ALTER TABLE "results_service"."attempts" ADD COLUMN "candidate_key" text;--> statement-breakpoint
-- Existing attempts get the key candidateKey() computes (NFKC, trimmed, lower case; lower() follows the
-- database's LC_CTYPE, which is how non-ASCII letters of IDs already stored are folded).
UPDATE "results_service"."attempts" SET "candidate_key" = lower(btrim(normalize("student_id", NFKC)));--> statement-breakpoint
-- IDs that differed only in case or width opened separate attempts before. Both stay as they are (answers,
-- results and tokens name the attempt id); the one a new start finds is the open one, else the earliest,
-- and the others keep the key with '#' and their id appended, so the unique index holds.
UPDATE "results_service"."attempts" AS a SET "candidate_key" = a."candidate_key" || '#' || a."id"
FROM (
  SELECT "id", row_number() OVER (
    PARTITION BY "exam_id", "candidate_key"
    ORDER BY ("submitted_at" IS NOT NULL), "started_at", "id"
  ) AS n
  FROM "results_service"."attempts"
) AS ranked
WHERE ranked."id" = a."id" AND ranked.n > 1;--> statement-breakpoint
ALTER TABLE "results_service"."attempts" ALTER COLUMN "candidate_key" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "results_service"."attempts" ADD COLUMN "resume_secret_hashes" text[] DEFAULT '{}'::text[] NOT NULL;--> statement-breakpoint
ALTER TABLE "results_service"."attempts" ADD COLUMN "resume_code_hash" text;--> statement-breakpoint
ALTER TABLE "results_service"."attempts" ADD COLUMN "resume_failures" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "results_service"."attempts" ADD COLUMN "resume_blocked_until" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "results_service"."attempts" ADD COLUMN "unlocked_until" timestamp with time zone;--> statement-breakpoint
CREATE UNIQUE INDEX "attempts_exam_candidate_idx" ON "results_service"."attempts" USING btree ("exam_id","candidate_key");