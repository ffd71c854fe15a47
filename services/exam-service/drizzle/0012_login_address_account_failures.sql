CREATE TABLE "exam_service"."login_address_account_failures" (
	"address" text NOT NULL,
	"email" text NOT NULL,
	"failures" integer NOT NULL,
	"window_started_at" timestamp with time zone NOT NULL,
	CONSTRAINT "login_address_account_failures_address_email_pk" PRIMARY KEY("address","email")
);
--> statement-breakpoint
CREATE INDEX "login_address_account_failures_email_idx" ON "exam_service"."login_address_account_failures" USING btree ("email");--> statement-breakpoint
CREATE INDEX "login_address_account_failures_window_idx" ON "exam_service"."login_address_account_failures" USING btree ("window_started_at");