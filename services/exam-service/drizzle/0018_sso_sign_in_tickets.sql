CREATE TABLE "exam_service"."sso_sign_in_tickets" (
	"ticket_hash" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exam_service"."sso_sign_in_tickets" ADD CONSTRAINT "sso_sign_in_tickets_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "exam_service"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "sso_sign_in_tickets_expires_idx" ON "exam_service"."sso_sign_in_tickets" USING btree ("expires_at");