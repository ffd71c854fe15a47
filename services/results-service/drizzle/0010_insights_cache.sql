CREATE TABLE "results_service"."insights_reports" (
	"exam_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"model" text NOT NULL,
	"data_version" bigint NOT NULL,
	"inputs_digest" text NOT NULL,
	"body_gzip" "bytea" NOT NULL,
	"computed_at" timestamp with time zone NOT NULL,
	CONSTRAINT "insights_reports_exam_id_owner_id_model_pk" PRIMARY KEY("exam_id","owner_id","model")
);
--> statement-breakpoint
CREATE TABLE "results_service"."insights_versions" (
	"exam_id" text NOT NULL,
	"shard" integer NOT NULL,
	"version" bigint NOT NULL,
	CONSTRAINT "insights_versions_exam_id_shard_pk" PRIMARY KEY("exam_id","shard")
);
--> statement-breakpoint
-- Hand-written (drizzle-kit does not model triggers): every write an insights report reads adds 1 to its
-- exam's version in the same transaction, so a cached report computed at an older version is never served.
-- Events need no trigger: they are only stored while their attempt is open (answer-writes.repository.ts
-- checks it under the attempt's row lock), and the submission that closes it bumps the version.
CREATE FUNCTION "results_service"."insights_bump"(exam text, attempt text) RETURNS void LANGUAGE sql AS $$
	INSERT INTO "results_service"."insights_versions" ("exam_id", "shard", "version")
	VALUES (exam, hashtext(coalesce(attempt, '')) & 15, 1)
	ON CONFLICT ("exam_id", "shard") DO UPDATE SET "version" = "insights_versions"."version" + 1
$$;--> statement-breakpoint
CREATE FUNCTION "results_service"."results_insights_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		PERFORM "results_service"."insights_bump"(OLD."exam_id", OLD."attempt_id");
	END IF;
	IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND (NEW."exam_id", NEW."attempt_id") IS DISTINCT FROM (OLD."exam_id", OLD."attempt_id")) THEN
		PERFORM "results_service"."insights_bump"(NEW."exam_id", NEW."attempt_id");
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "results_insights_changed" AFTER INSERT OR UPDATE OR DELETE ON "results_service"."results"
	FOR EACH ROW EXECUTE FUNCTION "results_service"."results_insights_changed"();--> statement-breakpoint
CREATE FUNCTION "results_service"."attempts_insights_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		PERFORM "results_service"."insights_bump"(OLD."exam_id", OLD."id");
	END IF;
	IF TG_OP = 'INSERT' OR (TG_OP = 'UPDATE' AND NEW."exam_id" IS DISTINCT FROM OLD."exam_id") THEN
		PERFORM "results_service"."insights_bump"(NEW."exam_id", NEW."id");
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "attempts_insights_started" AFTER INSERT OR DELETE ON "results_service"."attempts"
	FOR EACH ROW EXECUTE FUNCTION "results_service"."attempts_insights_changed"();--> statement-breakpoint
-- Only updates that name a column the report reads: an answer save (answers_version), a deadline move or a
-- resume never does, so the hot paths of a sitting pay nothing.
CREATE TRIGGER "attempts_insights_changed" AFTER UPDATE OF "exam_id", "owner_id", "candidate_key", "attempt_no", "started_at", "submitted_at", "result_id", "exam_snapshot" ON "results_service"."attempts"
	FOR EACH ROW EXECUTE FUNCTION "results_service"."attempts_insights_changed"();--> statement-breakpoint
CREATE FUNCTION "results_service"."keep_grade_insights_changed"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		PERFORM "results_service"."insights_bump"(OLD."exam_id", NULL);
	END IF;
	IF TG_OP <> 'DELETE' THEN
		PERFORM "results_service"."insights_bump"(NEW."exam_id", NULL);
	END IF;
	RETURN NULL;
END $$;--> statement-breakpoint
CREATE TRIGGER "exam_keep_grades_insights_added" AFTER INSERT OR DELETE ON "results_service"."exam_keep_grades"
	FOR EACH ROW EXECUTE FUNCTION "results_service"."keep_grade_insights_changed"();--> statement-breakpoint
CREATE TRIGGER "exam_keep_grades_insights_changed" AFTER UPDATE OF "keep_grade" ON "results_service"."exam_keep_grades"
	FOR EACH ROW WHEN (OLD."keep_grade" IS DISTINCT FROM NEW."keep_grade")
	EXECUTE FUNCTION "results_service"."keep_grade_insights_changed"();
--> statement-breakpoint
-- The body is gzip already: kept out of line without a second (pglz) compression.
ALTER TABLE "results_service"."insights_reports" ALTER COLUMN "body_gzip" SET STORAGE EXTERNAL;
