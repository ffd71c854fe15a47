ALTER TABLE "workspace_orchestrator"."volumes" ADD COLUMN "host" text;--> statement-breakpoint
ALTER TABLE "workspace_orchestrator"."workspaces" ADD COLUMN "host" text;--> statement-breakpoint
ALTER TABLE "workspace_orchestrator"."workspaces" ADD COLUMN "handed_out_at" timestamp with time zone;