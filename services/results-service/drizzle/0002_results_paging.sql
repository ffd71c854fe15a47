DROP INDEX "results_service"."results_owner_idx";--> statement-breakpoint
CREATE INDEX "results_owner_exam_idx" ON "results_service"."results" USING btree ("owner_id","exam_id","completed_at","id");--> statement-breakpoint
CREATE INDEX "results_owner_idx" ON "results_service"."results" USING btree ("owner_id","completed_at","id");