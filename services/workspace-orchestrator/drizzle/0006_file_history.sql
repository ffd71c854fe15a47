CREATE TABLE "workspace_orchestrator"."file_histories" (
	"attempt_id" text PRIMARY KEY NOT NULL,
	"bytes" integer DEFAULT 0 NOT NULL,
	"capped_at" timestamp with time zone,
	"followed" boolean,
	"looked_at" timestamp with time zone,
	"due_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "workspace_orchestrator"."file_versions" (
	"attempt_id" text NOT NULL,
	"path" text NOT NULL,
	"version" integer NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"kind" text NOT NULL,
	"body" text NOT NULL,
	"hash" text,
	"source" text,
	CONSTRAINT "file_versions_attempt_id_path_version_pk" PRIMARY KEY("attempt_id","path","version")
);
--> statement-breakpoint
CREATE INDEX "file_histories_due_idx" ON "workspace_orchestrator"."file_histories" USING btree ("due_at");