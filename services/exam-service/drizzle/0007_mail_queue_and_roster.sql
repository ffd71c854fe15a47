CREATE TABLE "exam_service"."mail_queue" (
	"id" text PRIMARY KEY NOT NULL,
	"to" text NOT NULL,
	"subject" text NOT NULL,
	"text" text NOT NULL,
	"html" text,
	"kind" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone NOT NULL,
	"last_error" text,
	"created_at" timestamp with time zone NOT NULL,
	"sent_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "exam_service"."roster_entries" (
	"id" text PRIMARY KEY NOT NULL,
	"exam_id" text NOT NULL,
	"name" text NOT NULL,
	"candidate_id" text NOT NULL,
	"candidate_key" text NOT NULL,
	"email" text,
	"invite_token_hash" text,
	"invited_at" timestamp with time zone,
	"reminded_at" timestamp with time zone,
	"release_notified_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exam_service"."roster_entries" ADD CONSTRAINT "roster_entries_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "exam_service"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "mail_queue_due_idx" ON "exam_service"."mail_queue" USING btree ("status","next_attempt_at");--> statement-breakpoint
CREATE UNIQUE INDEX "roster_entries_exam_candidate_idx" ON "exam_service"."roster_entries" USING btree ("exam_id","candidate_key");--> statement-breakpoint
CREATE UNIQUE INDEX "roster_entries_invite_idx" ON "exam_service"."roster_entries" USING btree ("invite_token_hash");