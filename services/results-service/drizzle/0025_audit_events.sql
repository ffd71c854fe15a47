CREATE TABLE "results_service"."audit_events" (
	"id" text PRIMARY KEY NOT NULL,
	"exam_id" text NOT NULL,
	"actor_id" text,
	"actor_email" text,
	"action" text NOT NULL,
	"subject" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "audit_events_exam_at_idx" ON "results_service"."audit_events" USING btree ("exam_id","at");