CREATE TABLE "workspace_orchestrator"."volumes" (
	"name" text PRIMARY KEY NOT NULL,
	"backend" text NOT NULL,
	"workspace_type" text NOT NULL,
	"attempt_id" text,
	"created_at" timestamp with time zone NOT NULL,
	"collected_at" timestamp with time zone,
	"closed_seen_at" timestamp with time zone,
	"removed_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "workspace_orchestrator"."workspaces" ADD COLUMN "volume" text;--> statement-breakpoint
CREATE UNIQUE INDEX "volumes_live_attempt_idx" ON "workspace_orchestrator"."volumes" USING btree ("attempt_id") WHERE "workspace_orchestrator"."volumes"."removed_at" is null;