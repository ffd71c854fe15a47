-- A chunk of compact operations (@exam/domain/answer-operations) less its first `skip`: what save_answers stores of
-- a resent or overlapping chunk. The text is the elements' own, joined as JSON.stringify would, so its octet_length
-- is the stored size.
CREATE OR REPLACE FUNCTION "results_service"."operations_tail"(ops json, skip integer) RETURNS json
LANGUAGE sql IMMUTABLE AS $$
	SELECT ('[' || string_agg(e.op::text, ',' ORDER BY e.i) || ']')::json
	FROM json_array_elements(ops) WITH ORDINALITY AS e(op, i)
	WHERE e.i > skip
$$;
