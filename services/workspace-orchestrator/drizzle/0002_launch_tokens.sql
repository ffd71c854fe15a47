CREATE TABLE "workspace_orchestrator"."launch_tokens" (
	"token_hash" text PRIMARY KEY NOT NULL,
	"session_id" text NOT NULL,
	"attempt_id" text NOT NULL,
	"cap_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone
);
--> statement-breakpoint
CREATE INDEX "launch_tokens_expires_idx" ON "workspace_orchestrator"."launch_tokens" USING btree ("expires_at");