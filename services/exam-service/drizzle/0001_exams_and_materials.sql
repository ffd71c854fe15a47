CREATE TABLE "exam_service"."course_materials" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"name" text NOT NULL,
	"mime_type" text NOT NULL,
	"size" integer NOT NULL,
	"text" text NOT NULL,
	"text_length" integer NOT NULL,
	"content" "bytea" NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_service"."exams" (
	"id" text PRIMARY KEY NOT NULL,
	"owner_id" text NOT NULL,
	"title" text NOT NULL,
	"description" text NOT NULL,
	"header" text NOT NULL,
	"rules" text NOT NULL,
	"timer_enabled" boolean NOT NULL,
	"timer_minutes" integer NOT NULL,
	"full_screen_enabled" boolean NOT NULL,
	"questions" jsonb NOT NULL,
	"coding_workspace" jsonb NOT NULL,
	"ai_settings" jsonb NOT NULL,
	"encrypted_api_key" text,
	"api_key_last4" text,
	"is_live" boolean NOT NULL,
	"is_draft" boolean NOT NULL,
	"published_at" timestamp with time zone,
	"created_at" timestamp with time zone NOT NULL,
	"last_edited_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
ALTER TABLE "exam_service"."course_materials" ADD CONSTRAINT "course_materials_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "exam_service"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_service"."exams" ADD CONSTRAINT "exams_owner_id_users_id_fk" FOREIGN KEY ("owner_id") REFERENCES "exam_service"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "course_materials_owner_idx" ON "exam_service"."course_materials" USING btree ("owner_id","created_at");--> statement-breakpoint
CREATE INDEX "exams_owner_created_idx" ON "exam_service"."exams" USING btree ("owner_id","created_at");