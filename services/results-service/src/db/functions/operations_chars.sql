-- The characters a chunk of compact operations (@exam/domain/answer-operations) inserts, by source (UTF-16 code
-- units, indexed as ANSWER_SOURCES): what the page counts for a chunk it sends, computed here for the part of a
-- resent chunk that save_answers stores. The insertion's short form leaves out `to`: its third element is the text.
CREATE OR REPLACE FUNCTION "results_service"."operations_chars"(ops json) RETURNS integer[]
LANGUAGE sql IMMUTABLE AS $$
	SELECT array[
		coalesce(sum(length(c.insert)) FILTER (WHERE c.source = '0'), 0),
		coalesce(sum(length(c.insert)) FILTER (WHERE c.source = '1'), 0),
		coalesce(sum(length(c.insert)) FILTER (WHERE c.source = '2'), 0),
		coalesce(sum(length(c.insert)) FILTER (WHERE c.source = '3'), 0),
		coalesce(sum(length(c.insert)) FILTER (WHERE c.source = '4'), 0)]::int[]
	FROM json_array_elements(ops) AS e(op)
	CROSS JOIN LATERAL (SELECT
		CASE WHEN json_typeof(e.op->2) = 'string' THEN e.op->>2 ELSE e.op->>3 END AS insert,
		CASE WHEN json_typeof(e.op->2) = 'string' THEN e.op->>3 ELSE e.op->>4 END AS source) c
$$;
