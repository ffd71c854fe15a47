CREATE TABLE "exam_service"."login_account_attempts" (
	"email" text PRIMARY KEY NOT NULL,
	"attempts" integer NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	"last_attempt_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE INDEX "login_account_attempts_window_idx" ON "exam_service"."login_account_attempts" USING btree ("window_started_at");