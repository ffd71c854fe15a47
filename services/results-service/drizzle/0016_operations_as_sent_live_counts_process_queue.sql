ALTER TABLE "results_service"."answer_operations" ALTER COLUMN "ops" SET DATA TYPE json;--> statement-breakpoint
ALTER TABLE "results_service"."attempts" ADD COLUMN "operations_chars" integer[] DEFAULT '{0,0,0,0,0}'::integer[] NOT NULL;--> statement-breakpoint
ALTER TABLE "results_service"."results" ADD COLUMN "process_pending" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "results_process_pending_idx" ON "results_service"."results" USING btree ("completed_at") WHERE "results_service"."results"."process_pending";