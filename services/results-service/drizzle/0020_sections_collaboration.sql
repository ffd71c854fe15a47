CREATE TABLE "results_service"."collaboration_judgements" (
	"result_id" text NOT NULL,
	"exam_id" text NOT NULL,
	"owner_id" text NOT NULL,
	"dimension" text NOT NULL,
	"suggested_level" integer NOT NULL,
	"rationale" text NOT NULL,
	"quotes" jsonb NOT NULL,
	"provider" text NOT NULL,
	"model" text NOT NULL,
	"input_tokens" integer NOT NULL,
	"output_tokens" integer NOT NULL,
	"suggested_at" timestamp with time zone NOT NULL,
	"status" text NOT NULL,
	"final_level" integer,
	"decided_by" text,
	"decided_at" timestamp with time zone,
	CONSTRAINT "collaboration_judgements_result_id_dimension_pk" PRIMARY KEY("result_id","dimension"),
	CONSTRAINT "collaboration_judgements_dimension_known" CHECK ("results_service"."collaboration_judgements"."dimension" in ('framing', 'verification')),
	CONSTRAINT "collaboration_judgements_status_known" CHECK ("results_service"."collaboration_judgements"."status" in ('suggested', 'accepted', 'edited')),
	CONSTRAINT "collaboration_judgements_levels" CHECK ("results_service"."collaboration_judgements"."suggested_level" between 0 and 4 and ("results_service"."collaboration_judgements"."final_level" is null or "results_service"."collaboration_judgements"."final_level" between 0 and 4))
);
--> statement-breakpoint
ALTER TABLE "results_service"."attempts" ADD COLUMN "section_index" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "results_service"."attempts" ADD COLUMN "section_started_at" timestamp with time zone;--> statement-breakpoint
CREATE INDEX "collaboration_judgements_exam_idx" ON "results_service"."collaboration_judgements" USING btree ("exam_id");