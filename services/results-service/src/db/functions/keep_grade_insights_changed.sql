-- Trigger function: a changed keep-grade rule bumps its exam's insights version (insights_bump).
-- This file is the function's current text (packages/server-kit/src/sql-functions.ts). To change the function,
-- edit it here and add a migration that applies it (`pnpm db:generate --custom --name=<why>`, this text pasted
-- in); src/db/functions.test.ts fails while the database and this file differ.
CREATE OR REPLACE FUNCTION "results_service"."keep_grade_insights_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		PERFORM "results_service"."insights_bump"(OLD."exam_id", NULL);
	END IF;
	IF TG_OP <> 'DELETE' THEN
		PERFORM "results_service"."insights_bump"(NEW."exam_id", NULL);
	END IF;
	RETURN NULL;
END $$;
