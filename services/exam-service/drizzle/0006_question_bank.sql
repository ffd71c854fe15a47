CREATE TABLE "exam_service"."bank_questions" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"question" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exam_service"."bank_questions" ADD CONSTRAINT "bank_questions_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "exam_service"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "bank_questions_owner_updated_idx" ON "exam_service"."bank_questions" USING btree ("owner_id","updated_at");