CREATE SCHEMA "workspace_orchestrator";
--> statement-breakpoint
CREATE TABLE "workspace_orchestrator"."workspaces" (
	"id" text PRIMARY KEY NOT NULL,
	"backend" text NOT NULL,
	"handle" text,
	"workspace_type" text NOT NULL,
	"egress" text NOT NULL,
	"status" text NOT NULL,
	"attempt_id" text,
	"exam_id" text,
	"owner_id" text,
	"user_id" text,
	"target" text,
	"editor_password" text NOT NULL,
	"editor_cookie" text,
	"from_warm_pool" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"assigned_at" timestamp with time zone,
	"last_activity_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"end_reason" text
);
--> statement-breakpoint
CREATE UNIQUE INDEX "workspaces_live_attempt_idx" ON "workspace_orchestrator"."workspaces" USING btree ("attempt_id") WHERE "workspace_orchestrator"."workspaces"."ended_at" is null;--> statement-breakpoint
CREATE INDEX "workspaces_status_type_idx" ON "workspace_orchestrator"."workspaces" USING btree ("status","workspace_type");--> statement-breakpoint
CREATE INDEX "workspaces_owner_idx" ON "workspace_orchestrator"."workspaces" USING btree ("owner_id");