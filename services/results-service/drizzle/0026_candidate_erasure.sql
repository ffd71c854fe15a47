-- Custom migration: erasing a candidate's data on request or by the retention period (modules/privacy) deletes their
-- grade history too; the history stays append-only for everything else. The text is src/db/functions/grade_history_append_only.sql.
CREATE OR REPLACE FUNCTION "results_service"."grade_history_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' AND TG_LEVEL = 'ROW' AND current_setting('results_service.erasing', true) = 'on' THEN
		RETURN OLD;
	END IF;
	RAISE EXCEPTION 'results_service.grade_history is append-only';
END
$$;
