-- The trigger function that keeps results_service.grade_history append-only.
-- This file is the function's current text (packages/server-kit/src/sql-functions.ts). To change the function,
-- edit it here and add a migration that applies it (`pnpm db:generate --custom --name=<why>`, this text pasted
-- in); src/db/functions.test.ts fails while the database and this file differ.
-- One exception: erasing a candidate's data (modules/privacy) deletes their rows, in a transaction that has set
-- results_service.erasing to 'on' with set_config(…, true), which lasts only until that transaction ends.
CREATE OR REPLACE FUNCTION "results_service"."grade_history_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP = 'DELETE' AND TG_LEVEL = 'ROW' AND current_setting('results_service.erasing', true) = 'on' THEN
		RETURN OLD;
	END IF;
	RAISE EXCEPTION 'results_service.grade_history is append-only';
END
$$;
