CREATE TABLE "exam_service"."audit_events" (
	"id" text PRIMARY KEY NOT NULL,
	"exam_id" text NOT NULL,
	"actor_id" text,
	"actor_email" text,
	"action" text NOT NULL,
	"subject" text,
	"detail" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_service"."data_erasures" (
	"id" text PRIMARY KEY NOT NULL,
	"exam_id" text NOT NULL,
	"candidate_key_hash" text,
	"reason" text NOT NULL,
	"requested_by" text,
	"requested_at" timestamp with time zone NOT NULL,
	"completed_at" timestamp with time zone,
	"services" jsonb DEFAULT '{}'::jsonb NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_service"."exam_member_invites" (
	"exam_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"may_release" boolean DEFAULT false NOT NULL,
	"invited_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "exam_member_invites_exam_id_email_pk" PRIMARY KEY("exam_id","email")
);
--> statement-breakpoint
CREATE TABLE "exam_service"."exam_members" (
	"exam_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"may_release" boolean DEFAULT false NOT NULL,
	"added_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "exam_members_exam_id_user_id_pk" PRIMARY KEY("exam_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "exam_service"."oidc_login_states" (
	"state_hash" text PRIMARY KEY NOT NULL,
	"organization_id" text NOT NULL,
	"code_verifier" text NOT NULL,
	"nonce" text NOT NULL,
	"return_to" text,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_service"."organization_invites" (
	"organization_id" text NOT NULL,
	"email" text NOT NULL,
	"role" text NOT NULL,
	"invited_by" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"accepted_at" timestamp with time zone,
	CONSTRAINT "organization_invites_organization_id_email_pk" PRIMARY KEY("organization_id","email")
);
--> statement-breakpoint
CREATE TABLE "exam_service"."organization_members" (
	"organization_id" text NOT NULL,
	"user_id" text NOT NULL,
	"role" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "organization_members_organization_id_user_id_pk" PRIMARY KEY("organization_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "exam_service"."organization_sso" (
	"organization_id" text PRIMARY KEY NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"encrypted_client_secret" text,
	"email_domains" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_service"."organizations" (
	"id" text PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"password_sign_in" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_service"."user_identities" (
	"issuer" text NOT NULL,
	"subject" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "user_identities_issuer_subject_pk" PRIMARY KEY("issuer","subject")
);
--> statement-breakpoint
ALTER TABLE "exam_service"."users" ALTER COLUMN "password_hash" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "exam_service"."exams" ADD COLUMN "retention_days" integer;--> statement-breakpoint
ALTER TABLE "exam_service"."mail_queue" ADD COLUMN "exam_id" text;--> statement-breakpoint
ALTER TABLE "exam_service"."mail_queue" ADD COLUMN "candidate_key" text;--> statement-breakpoint
ALTER TABLE "exam_service"."exam_member_invites" ADD CONSTRAINT "exam_member_invites_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "exam_service"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_service"."exam_members" ADD CONSTRAINT "exam_members_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "exam_service"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_service"."exam_members" ADD CONSTRAINT "exam_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "exam_service"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_service"."oidc_login_states" ADD CONSTRAINT "oidc_login_states_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "exam_service"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_service"."organization_invites" ADD CONSTRAINT "organization_invites_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "exam_service"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_service"."organization_members" ADD CONSTRAINT "organization_members_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "exam_service"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_service"."organization_members" ADD CONSTRAINT "organization_members_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "exam_service"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_service"."organization_sso" ADD CONSTRAINT "organization_sso_organization_id_organizations_id_fk" FOREIGN KEY ("organization_id") REFERENCES "exam_service"."organizations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_service"."user_identities" ADD CONSTRAINT "user_identities_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "exam_service"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "audit_events_exam_at_idx" ON "exam_service"."audit_events" USING btree ("exam_id","at");--> statement-breakpoint
CREATE INDEX "data_erasures_exam_idx" ON "exam_service"."data_erasures" USING btree ("exam_id","requested_at");--> statement-breakpoint
CREATE INDEX "exam_member_invites_email_idx" ON "exam_service"."exam_member_invites" USING btree ("email");--> statement-breakpoint
CREATE INDEX "exam_members_user_idx" ON "exam_service"."exam_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "oidc_login_states_expires_idx" ON "exam_service"."oidc_login_states" USING btree ("expires_at");--> statement-breakpoint
CREATE INDEX "organization_invites_email_idx" ON "exam_service"."organization_invites" USING btree ("email");--> statement-breakpoint
CREATE UNIQUE INDEX "organization_members_user_idx" ON "exam_service"."organization_members" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "user_identities_user_idx" ON "exam_service"."user_identities" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "mail_queue_exam_candidate_idx" ON "exam_service"."mail_queue" USING btree ("exam_id","candidate_key");--> statement-breakpoint
-- Every existing creator gets an organization of their own, of which they are the admin (issue 38).
INSERT INTO "exam_service"."organizations" ("id", "name", "password_sign_in", "created_at")
SELECT 'org-' || "id", "email", true, "created_at" FROM "exam_service"."users";
--> statement-breakpoint
INSERT INTO "exam_service"."organization_members" ("organization_id", "user_id", "role", "created_at")
SELECT 'org-' || "id", "id", 'admin', "created_at" FROM "exam_service"."users";
