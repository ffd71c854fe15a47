-- Custom migration: each function's text now lives in src/db/functions/<name>.sql (one home per function). This
-- applies those files as they are when the move was made, so the database and the files start equal; it changes no
-- behaviour (CREATE OR REPLACE with the text the earlier migrations left). src/db/functions.test.ts checks them.
CREATE OR REPLACE FUNCTION "results_service"."attempts_insights_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		PERFORM "results_service"."insights_bump"(OLD."exam_id", OLD."id");
	END IF;
	IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."exam_id" IS DISTINCT FROM OLD."exam_id") THEN
		PERFORM "results_service"."insights_bump"(NEW."exam_id", NEW."id");
	END IF;
	RETURN NULL;
END $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "results_service"."grade_history_append_only"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	RAISE EXCEPTION 'results_service.grade_history is append-only';
END
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "results_service"."insights_bump"(exam text, attempt text) RETURNS void LANGUAGE sql AS $$
	INSERT INTO "results_service"."insights_versions" ("exam_id", "shard", "version")
	VALUES (exam, hashtext(coalesce(attempt, '')) & 15, 1)
	ON CONFLICT ("exam_id", "shard") DO UPDATE SET "version" = "insights_versions"."version" + 1
$$;
--> statement-breakpoint
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
--> statement-breakpoint
CREATE OR REPLACE FUNCTION "results_service"."results_insights_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		PERFORM "results_service"."insights_bump"(OLD."exam_id", OLD."attempt_id");
	END IF;
	IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND (NEW."exam_id", NEW."attempt_id") IS DISTINCT FROM (OLD."exam_id", OLD."attempt_id")) THEN
		PERFORM "results_service"."insights_bump"(NEW."exam_id", NEW."attempt_id");
	END IF;
	RETURN NULL;
END $$;
