CREATE TABLE "results_service"."announcements" (
	"id" text PRIMARY KEY NOT NULL,
	"exam_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"text" text NOT NULL,
	"created_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "results_service"."attempt_endings" (
	"attempt_id" text PRIMARY KEY NOT NULL,
	"ended_by" text NOT NULL,
	"ended_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "results_service"."attempt_presence" (
	"attempt_id" text PRIMARY KEY NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "announcements_exam_idx" ON "results_service"."announcements" USING btree ("exam_id","created_at");