-- The autosave write, for one save or a batch of them (modules/attempts/answer-batch.ts), in one call: one round
-- trip and one commit. `saves`: [{ord, attempt_id, question_index, answer, seq, at, cutoff, ops_start, ops}], ops
-- (the compact operations, @exam/domain/answer-operations) and ops_start null for a save without operations; at
-- most one save per question carries operations. `operations_cap`: OPERATIONS_PER_ATTEMPT_MAX_BYTES.
-- Returns one row per question that an accepted save touched: the stored seq and operation count after it,
-- whether the save chosen for it replaced the answer, and whether the attempt's operations are capped.
--
-- Two statements on purpose. The first takes the open attempts' row locks in id order (two calls never wait on each
-- other in a cycle; a submit that committed first makes its attempt drop out, as READ COMMITTED re-checks
-- `submitted_at` on the newest row version). Every writer of an attempt's answers holds that lock, so the second
-- statement, whose snapshot is taken after the locks were granted (a VOLATILE function's statements each take a new
-- one), reads each question's stored seq and operation count as they are, and nobody changes them until this commits.
-- A single statement would read them from a snapshot taken before it waited for the lock, and store again operations
-- that the save it waited for had just stored.
--
-- The second keeps the rules save by save:
--   - a save counts only while its attempt is open, its cutoff within the deadline and its index in range;
--   - answers_version goes up by one per accepted save, so a submit that read the attempt before sees it move;
--   - several saves of one question keep the highest seq (the earliest of equal ones); only an older stored seq is
--     replaced;
--   - operations are stored once: only the part past the question's stored count (a resent or overlapping chunk adds
--     only what is new; one starting past it is stored whole and the gap is reconciled when read), also when the
--     save's answer is stale (they are the page's log, not the answer's value);
--   - a chunk that would take the attempt's operations past the cap is not stored, nor any after it: the cap time is
--     set once and the answers are still saved.
CREATE OR REPLACE FUNCTION "results_service"."save_answers"(saves json, operations_cap integer)
RETURNS TABLE (attempt_id text, question_index integer, seq bigint, applied boolean, operations_end integer, capped boolean)
LANGUAGE plpgsql AS $$
#variable_conflict use_column
BEGIN
	PERFORM 1 FROM "results_service"."attempts" a
	WHERE a.id IN (SELECT t.attempt_id FROM json_to_recordset(saves) AS t(attempt_id text)) AND a.submitted_at IS NULL
	ORDER BY a.id
	FOR UPDATE;

	RETURN QUERY
	WITH input AS (
		SELECT * FROM json_to_recordset(saves) AS t(ord int, attempt_id text, question_index int, answer text, seq bigint,
			at timestamptz, cutoff timestamptz, ops_start int, ops json)
	),
	locked AS (
		SELECT a.id, a.question_count, a.deadline, a.operations_bytes, a.operations_capped_at
		FROM "results_service"."attempts" a
		WHERE a.id IN (SELECT i.attempt_id FROM input i) AND a.submitted_at IS NULL
		ORDER BY a.id
		FOR UPDATE
	),
	accepted AS (
		SELECT i.* FROM input i JOIN locked l ON l.id = i.attempt_id
		WHERE i.question_index < l.question_count AND (l.deadline IS NULL OR l.deadline >= i.cutoff)
	),
	prior AS (
		SELECT s.attempt_id, s.question_index, s.seq, s.operations_end FROM "results_service"."answers" s
		WHERE (s.attempt_id, s.question_index) IN (SELECT x.attempt_id, x.question_index FROM accepted x)
	),
	chosen AS (
		SELECT DISTINCT ON (x.attempt_id, x.question_index) x.* FROM accepted x
		ORDER BY x.attempt_id, x.question_index, x.seq DESC, x.ord
	),
	-- The operations of each chunk past the stored count: index, text, size and the characters each inserts.
	fresh AS (
		SELECT x.attempt_id, x.question_index, x.ord, x.at, x.ops_start + e.i::int - 1 AS idx, e.op
		FROM accepted x
		LEFT JOIN prior p ON p.attempt_id = x.attempt_id AND p.question_index = x.question_index
		CROSS JOIN LATERAL json_array_elements(x.ops) WITH ORDINALITY AS e(op, i)
		WHERE x.ops IS NOT NULL AND x.ops_start + e.i - 1 >= coalesce(p.operations_end, 0)
	),
	chunks AS (
		SELECT f.attempt_id, f.question_index, min(f.ord) AS ord, min(f.at) AS at, min(f.idx) AS start,
			max(f.idx) + 1 AS "end", jsonb_agg(f.op::jsonb ORDER BY f.idx) AS ops,
			-- The chunk's JSON text as sent: the elements, the commas between them and the brackets.
			(sum(octet_length(f.op::text)) + count(*) + 1)::int AS bytes,
			array[
				coalesce(sum(length(f.op->>3)) FILTER (WHERE f.op->>4 = '0'), 0),
				coalesce(sum(length(f.op->>3)) FILTER (WHERE f.op->>4 = '1'), 0),
				coalesce(sum(length(f.op->>3)) FILTER (WHERE f.op->>4 = '2'), 0),
				coalesce(sum(length(f.op->>3)) FILTER (WHERE f.op->>4 = '3'), 0),
				coalesce(sum(length(f.op->>3)) FILTER (WHERE f.op->>4 = '4'), 0)
			]::int[] AS chars
		FROM fresh f
		GROUP BY f.attempt_id, f.question_index
	),
	-- In arrival order within the attempt, chunks are kept while the running total stays within the cap.
	fitted AS (
		SELECT c.*, l.operations_capped_at IS NULL
			AND l.operations_bytes + sum(c.bytes) OVER (PARTITION BY c.attempt_id ORDER BY c.ord) <= operations_cap AS fits
		FROM chunks c JOIN locked l ON l.id = c.attempt_id
	),
	kept AS (SELECT * FROM fitted WHERE fits),
	stored AS (
		INSERT INTO "results_service"."answer_operations" (attempt_id, question_index, start, "end", ops, bytes, created_at)
		SELECT k.attempt_id, k.question_index, k.start, k."end", k.ops, k.bytes, k.at FROM kept k
	),
	per_attempt AS (
		SELECT x.attempt_id, count(*)::int AS saves,
			coalesce((SELECT sum(k.bytes) FROM kept k WHERE k.attempt_id = x.attempt_id), 0)::int AS bytes,
			(SELECT min(f.at) FROM fitted f WHERE f.attempt_id = x.attempt_id AND NOT f.fits) AS capped_at,
			coalesce((SELECT array[sum(k.chars[1]), sum(k.chars[2]), sum(k.chars[3]), sum(k.chars[4]), sum(k.chars[5])]::int[]
				FROM kept k WHERE k.attempt_id = x.attempt_id), '{0,0,0,0,0}') AS chars
		FROM accepted x
		GROUP BY x.attempt_id
	),
	bumped AS (
		UPDATE "results_service"."attempts" a SET
			answers_version = a.answers_version + c.saves,
			operations_bytes = a.operations_bytes + c.bytes,
			operations_capped_at = coalesce(a.operations_capped_at, c.capped_at),
			operations_chars = array[
				a.operations_chars[1] + coalesce(c.chars[1], 0), a.operations_chars[2] + coalesce(c.chars[2], 0),
				a.operations_chars[3] + coalesce(c.chars[3], 0), a.operations_chars[4] + coalesce(c.chars[4], 0),
				a.operations_chars[5] + coalesce(c.chars[5], 0)]
		FROM per_attempt c
		WHERE a.id = c.attempt_id
	),
	written AS (
		INSERT INTO "results_service"."answers" (attempt_id, question_index, answer, seq, updated_at, operations_end)
		SELECT c.attempt_id, c.question_index, c.answer, c.seq, c.at, coalesce(k."end", 0)
		FROM chosen c LEFT JOIN kept k ON k.attempt_id = c.attempt_id AND k.question_index = c.question_index
		ON CONFLICT (attempt_id, question_index) DO UPDATE SET
			answer = CASE WHEN answers.seq < excluded.seq THEN excluded.answer ELSE answers.answer END,
			updated_at = CASE WHEN answers.seq < excluded.seq THEN excluded.updated_at ELSE answers.updated_at END,
			seq = greatest(answers.seq, excluded.seq),
			operations_end = greatest(answers.operations_end, excluded.operations_end)
		WHERE answers.seq < excluded.seq OR answers.operations_end < excluded.operations_end
	)
	SELECT c.attempt_id, c.question_index, greatest(coalesce(p.seq, c.seq), c.seq)::bigint,
		p.seq IS NULL OR p.seq < c.seq,
		greatest(coalesce(p.operations_end, 0), coalesce(k."end", 0))::int,
		l.operations_capped_at IS NOT NULL OR pa.capped_at IS NOT NULL
	FROM chosen c
	JOIN locked l ON l.id = c.attempt_id
	JOIN per_attempt pa ON pa.attempt_id = c.attempt_id
	LEFT JOIN prior p ON p.attempt_id = c.attempt_id AND p.question_index = c.question_index
	LEFT JOIN kept k ON k.attempt_id = c.attempt_id AND k.question_index = c.question_index;
END $$;
