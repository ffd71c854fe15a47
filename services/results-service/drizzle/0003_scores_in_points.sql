CREATE TABLE "results_service"."grade_history" (
	"id" bigint PRIMARY KEY GENERATED ALWAYS AS IDENTITY (sequence name "results_service"."grade_history_id_seq" INCREMENT BY 1 MINVALUE 1 MAXVALUE 9223372036854775807 START WITH 1 CACHE 1),
	"result_id" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"by" text NOT NULL,
	"kind" text NOT NULL,
	"question_index" integer,
	"before" jsonb,
	"after" jsonb
);
--> statement-breakpoint
CREATE INDEX "grade_history_result_idx" ON "results_service"."grade_history" USING btree ("result_id","id");--> statement-breakpoint
-- Hand-written (drizzle-kit does not model triggers): the history is append-only.
CREATE FUNCTION "results_service"."grade_history_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'results_service.grade_history is append-only';
END
$$;--> statement-breakpoint
CREATE TRIGGER "grade_history_no_change" BEFORE UPDATE OR DELETE ON "results_service"."grade_history"
	FOR EACH ROW EXECUTE FUNCTION "results_service"."grade_history_append_only"();--> statement-breakpoint
CREATE TRIGGER "grade_history_no_truncate" BEFORE TRUNCATE ON "results_service"."grade_history"
	FOR EACH STATEMENT EXECUTE FUNCTION "results_service"."grade_history_append_only"();--> statement-breakpoint
ALTER TABLE "results_service"."results" ALTER COLUMN "score" SET DATA TYPE numeric(12, 2);--> statement-breakpoint
ALTER TABLE "results_service"."results" ADD COLUMN "max_score" numeric(12, 2);--> statement-breakpoint
ALTER TABLE "results_service"."results" ADD COLUMN "status" text;--> statement-breakpoint
ALTER TABLE "results_service"."results" ADD COLUMN "pending_count" integer;--> statement-breakpoint
ALTER TABLE "results_service"."results" ADD COLUMN "released_at" timestamp with time zone;--> statement-breakpoint
-- Hand-written backfill of every existing result into the points model (grading/score.ts), in the same
-- transaction as the columns it fills. Old results and snapshots have no points: every question is worth 1.
-- An old grade is { answer, isCorrect, isGraded, feedback }; each becomes { answer, points, autoScored,
-- feedback, criteria, manual }:
-- * a question with a key is re-scored by the key as @exam/domain/grading scores it (MCQ: the exact option;
--   short answer: trimmed, inner whitespace collapsed, case-insensitive, the spec's short-answer
--   correctAnswer counting as one more accepted answer);
-- * on a question without a key, a graded answer becomes the grader's mark (isCorrect: 1 point, else 0) when
--   a grader ever saved the result (updated_at later than created_at). Otherwise its grade was the old
--   submission's automatic "wrong" for a keyless MCQ or short answer, and it is pending: a grader decides;
-- * every other answer is pending.
-- normalize_answer below is normalizeText of @exam/domain/grading: JavaScript's trim() and \s are the
-- whitespace class spelled out here, and lower() is Unicode-aware under the UTF-8 locales this service runs
-- on (PostgreSQL's C.UTF-8 and PGlite). src/db/migrations.test.ts checks the result against scoreResult.
CREATE FUNCTION "results_service"."normalize_answer"(value text) RETURNS text LANGUAGE sql IMMUTABLE AS $$
	SELECT lower(regexp_replace(
		regexp_replace(value, '^[ \t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+|[ \t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+$', '', 'g'),
		'[ \t\n\v\f\r\u00a0\u1680\u2000-\u200a\u2028\u2029\u202f\u205f\u3000\ufeff]+', ' ', 'g'))
$$;--> statement-breakpoint
UPDATE "results_service"."results" AS r
SET grades = s.grades,
	score = s.score,
	max_score = s.max_score,
	pending_count = s.pending_count,
	status = CASE WHEN s.pending_count > 0 THEN 'pending' ELSE 'graded' END,
	graded_at = CASE WHEN s.pending_count > 0 THEN NULL ELSE coalesce(r.graded_at, r.updated_at) END
FROM (
	SELECT res.id,
		coalesce(jsonb_agg(scored.grade ORDER BY scored.n) FILTER (WHERE scored.n IS NOT NULL), '[]'::jsonb) AS grades,
		coalesce(sum((scored.grade->>'points')::numeric), 0) AS score,
		count(scored.n) AS max_score,
		count(scored.n) FILTER (WHERE scored.grade->'points' = 'null'::jsonb) AS pending_count
	FROM "results_service"."results" AS res
	LEFT JOIN "results_service"."attempts" AS a ON a.id = res.attempt_id
	LEFT JOIN LATERAL (
		SELECT g.n, jsonb_build_object(
			'answer', coalesce(g.grade->'answer', 'null'::jsonb),
			'points', CASE
				WHEN k.keyed THEN to_jsonb(CASE WHEN k.right_answer THEN 1 ELSE 0 END)
				WHEN k.marked THEN to_jsonb(CASE WHEN (g.grade->>'isCorrect')::boolean THEN 1 ELSE 0 END)
				ELSE 'null'::jsonb END,
			'autoScored', k.keyed,
			'feedback', coalesce(g.grade->>'feedback', ''),
			'criteria', '[]'::jsonb,
			'manual', NOT k.keyed AND k.marked
		) AS grade
		FROM jsonb_array_elements(res.grades) WITH ORDINALITY AS g(grade, n)
		CROSS JOIN LATERAL (SELECT a.exam_snapshot->'questions'->(g.n::int - 1) AS q) AS question
		CROSS JOIN LATERAL (
			SELECT array_remove(
				ARRAY(SELECT jsonb_array_elements_text(coalesce(question.q->'acceptedAnswers', '[]'::jsonb)))
					|| CASE WHEN question.q->>'type' = 'short-answer' THEN question.q->>'correctAnswer' END,
				NULL) AS accepted
		) AS key
		CROSS JOIN LATERAL (
			SELECT
				CASE question.q->>'type'
					WHEN 'mcq' THEN coalesce(question.q->>'correctAnswer', '') <> ''
					WHEN 'short-answer' THEN EXISTS (
						SELECT 1 FROM unnest(key.accepted) AS acc(value)
						WHERE "results_service"."normalize_answer"(acc.value) <> '')
					ELSE false
				END AS keyed,
				CASE question.q->>'type'
					WHEN 'mcq' THEN g.grade->>'answer' IS NOT NULL AND g.grade->>'answer' = question.q->>'correctAnswer'
					WHEN 'short-answer' THEN EXISTS (
						SELECT 1 FROM unnest(key.accepted) AS acc(value)
						WHERE "results_service"."normalize_answer"(acc.value) <> ''
							AND "results_service"."normalize_answer"(acc.value) = "results_service"."normalize_answer"(g.grade->>'answer'))
					ELSE false
				END AS right_answer,
				coalesce((g.grade->>'isGraded')::boolean, false) AND res.updated_at > res.created_at AS marked
		) AS k
	) AS scored ON true
	GROUP BY res.id
) AS s
WHERE s.id = r.id;--> statement-breakpoint
DROP FUNCTION "results_service"."normalize_answer"(text);--> statement-breakpoint
ALTER TABLE "results_service"."results" ALTER COLUMN "score" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "results_service"."results" ALTER COLUMN "max_score" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "results_service"."results" ALTER COLUMN "status" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "results_service"."results" ALTER COLUMN "pending_count" SET NOT NULL;
