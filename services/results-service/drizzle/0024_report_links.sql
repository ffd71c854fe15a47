CREATE TABLE "results_service"."report_links" (
	"id" text PRIMARY KEY NOT NULL,
	"result_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"revoked_at" timestamp with time zone,
	"last_opened_at" timestamp with time zone,
	"open_count" integer DEFAULT 0 NOT NULL
);
--> statement-breakpoint
CREATE UNIQUE INDEX "report_links_token_idx" ON "results_service"."report_links" USING btree ("token_hash");--> statement-breakpoint
CREATE INDEX "report_links_result_idx" ON "results_service"."report_links" USING btree ("result_id");