-- Adds 1 to the insights version of an exam (one of 16 shards by attempt), so a cached insights report
-- computed at an older version is never served.
-- This file is the function's current text (packages/server-kit/src/sql-functions.ts). To change the function,
-- edit it here and add a migration that applies it (`pnpm db:generate --custom --name=<why>`, this text pasted
-- in); src/db/functions.test.ts fails while the database and this file differ.
CREATE OR REPLACE FUNCTION "results_service"."insights_bump"(exam text, attempt text) RETURNS void LANGUAGE sql AS $$
	INSERT INTO "results_service"."insights_versions" ("exam_id", "shard", "version")
	VALUES (exam, hashtext(coalesce(attempt, '')) & 15, 1)
	ON CONFLICT ("exam_id", "shard") DO UPDATE SET "version" = "insights_versions"."version" + 1
$$;
