CREATE SCHEMA "exam_service";
--> statement-breakpoint
CREATE TABLE "exam_service"."login_failures" (
	"address" text PRIMARY KEY NOT NULL,
	"failures" integer NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_service"."users" (
	"id" text PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"password_hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE INDEX "login_failures_window_idx" ON "exam_service"."login_failures" USING btree ("window_started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_idx" ON "exam_service"."users" USING btree ("email");