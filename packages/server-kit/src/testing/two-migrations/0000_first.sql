CREATE SCHEMA "lock_fixture";
--> statement-breakpoint
CREATE TABLE "lock_fixture"."things" ("id" text PRIMARY KEY NOT NULL);
