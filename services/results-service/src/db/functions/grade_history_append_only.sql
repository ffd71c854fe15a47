-- The trigger function that keeps results_service.grade_history append-only.
-- This file is the function's current text (packages/server-kit/src/sql-functions.ts). To change the function,
-- edit it here and add a migration that applies it (`pnpm db:generate --custom --name=<why>`, this text pasted
-- in); src/db/functions.test.ts fails while the database and this file differ.
CREATE OR REPLACE FUNCTION "results_service"."grade_history_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'results_service.grade_history is append-only';
END
$$;
