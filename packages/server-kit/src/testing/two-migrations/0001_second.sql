ALTER TABLE "lock_fixture"."things" ADD COLUMN "name" text DEFAULT '' NOT NULL;
--> statement-breakpoint
SELECT pg_sleep(0.3);
