CREATE TABLE "llm_gateway"."assistant_audits" (
	"id" text PRIMARY KEY NOT NULL,
	"exam_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"exam_version" text NOT NULL,
	"battery_version" text NOT NULL,
	"status" text NOT NULL,
	"configurations" jsonb NOT NULL,
	"concurrency" integer NOT NULL,
	"max_tokens" integer NOT NULL,
	"estimate" jsonb NOT NULL,
	"calls_used" integer DEFAULT 0 NOT NULL,
	"tokens_used" integer DEFAULT 0 NOT NULL,
	"progress_done" integer DEFAULT 0 NOT NULL,
	"progress_total" integer DEFAULT 0 NOT NULL,
	"items" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"cancel_requested" boolean DEFAULT false NOT NULL,
	"resumed" integer DEFAULT 0 NOT NULL,
	"error" text,
	"lease_owner" text NOT NULL,
	"lease_expires_at" timestamp with time zone NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "llm_gateway"."audit_attempts" (
	"audit_id" text NOT NULL,
	"configuration" integer NOT NULL,
	"question_index" integer NOT NULL,
	"attempt_id" text NOT NULL,
	"form" text NOT NULL,
	"status" text NOT NULL,
	"raw_leaked" boolean DEFAULT false NOT NULL,
	"guarded_leaked" boolean DEFAULT false NOT NULL,
	"disguises" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"turns" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"calls" integer DEFAULT 0 NOT NULL,
	"tokens" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "audit_attempts_audit_id_configuration_question_index_attempt_id_pk" PRIMARY KEY("audit_id","configuration","question_index","attempt_id")
);
--> statement-breakpoint
ALTER TABLE "llm_gateway"."solvability_checks" ADD COLUMN "exam_version" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "llm_gateway"."solvability_checks" ADD COLUMN "configurations" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "llm_gateway"."audit_attempts" ADD CONSTRAINT "audit_attempts_audit_id_assistant_audits_id_fk" FOREIGN KEY ("audit_id") REFERENCES "llm_gateway"."assistant_audits"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "assistant_audits_exam_started_idx" ON "llm_gateway"."assistant_audits" USING btree ("exam_id","started_at");--> statement-breakpoint
CREATE UNIQUE INDEX "assistant_audits_one_running_idx" ON "llm_gateway"."assistant_audits" USING btree ("exam_id") WHERE "llm_gateway"."assistant_audits"."status" = 'running';--> statement-breakpoint
CREATE INDEX "assistant_audits_running_lease_idx" ON "llm_gateway"."assistant_audits" USING btree ("lease_expires_at") WHERE "llm_gateway"."assistant_audits"."status" = 'running';