CREATE TABLE "exam_service"."lti_accounts" (
	"platform_id" text NOT NULL,
	"sub" text NOT NULL,
	"user_id" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	CONSTRAINT "lti_accounts_platform_id_sub_pk" PRIMARY KEY("platform_id","sub")
);
--> statement-breakpoint
CREATE TABLE "exam_service"."lti_launch_tickets" (
	"ticket_hash" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"launch" jsonb NOT NULL,
	"redeemed_at" timestamp with time zone,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_service"."lti_links" (
	"id" text PRIMARY KEY NOT NULL,
	"platform_id" text NOT NULL,
	"deployment_id" text NOT NULL,
	"context_id" text,
	"resource_link_id" text NOT NULL,
	"title" text,
	"exam_id" text NOT NULL,
	"line_item_url" text,
	"line_items_url" text,
	"ags_scopes" jsonb DEFAULT '[]'::jsonb NOT NULL,
	"context_memberships_url" text,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_service"."lti_login_states" (
	"state" text PRIMARY KEY NOT NULL,
	"nonce" text NOT NULL,
	"platform_id" text NOT NULL,
	"target_link_uri" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_service"."lti_platforms" (
	"id" text PRIMARY KEY NOT NULL,
	"creator_id" text NOT NULL,
	"name" text NOT NULL,
	"issuer" text NOT NULL,
	"client_id" text NOT NULL,
	"auth_login_url" text NOT NULL,
	"auth_token_url" text NOT NULL,
	"jwks_url" text NOT NULL,
	"deployment_ids" jsonb NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"updated_at" timestamp with time zone NOT NULL
);
--> statement-breakpoint
CREATE TABLE "exam_service"."lti_tool_keys" (
	"kid" text PRIMARY KEY NOT NULL,
	"public_jwk" jsonb NOT NULL,
	"encrypted_private_key" text NOT NULL,
	"created_at" timestamp with time zone NOT NULL,
	"retired_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "exam_service"."lti_used_nonces" (
	"platform_id" text NOT NULL,
	"nonce" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	CONSTRAINT "lti_used_nonces_platform_id_nonce_pk" PRIMARY KEY("platform_id","nonce")
);
--> statement-breakpoint
ALTER TABLE "exam_service"."lti_accounts" ADD CONSTRAINT "lti_accounts_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "exam_service"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_service"."lti_accounts" ADD CONSTRAINT "lti_accounts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "exam_service"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_service"."lti_launch_tickets" ADD CONSTRAINT "lti_launch_tickets_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "exam_service"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_service"."lti_links" ADD CONSTRAINT "lti_links_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "exam_service"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_service"."lti_links" ADD CONSTRAINT "lti_links_exam_id_exams_id_fk" FOREIGN KEY ("exam_id") REFERENCES "exam_service"."exams"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_service"."lti_login_states" ADD CONSTRAINT "lti_login_states_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "exam_service"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_service"."lti_platforms" ADD CONSTRAINT "lti_platforms_creator_id_users_id_fk" FOREIGN KEY ("creator_id") REFERENCES "exam_service"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exam_service"."lti_used_nonces" ADD CONSTRAINT "lti_used_nonces_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "exam_service"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "lti_accounts_user_idx" ON "exam_service"."lti_accounts" USING btree ("user_id");--> statement-breakpoint
CREATE INDEX "lti_launch_tickets_expires_idx" ON "exam_service"."lti_launch_tickets" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_links_resource_idx" ON "exam_service"."lti_links" USING btree ("platform_id","deployment_id","resource_link_id");--> statement-breakpoint
CREATE INDEX "lti_links_exam_idx" ON "exam_service"."lti_links" USING btree ("exam_id");--> statement-breakpoint
CREATE INDEX "lti_login_states_expires_idx" ON "exam_service"."lti_login_states" USING btree ("expires_at");--> statement-breakpoint
CREATE UNIQUE INDEX "lti_platforms_issuer_client_idx" ON "exam_service"."lti_platforms" USING btree ("issuer","client_id");--> statement-breakpoint
CREATE INDEX "lti_platforms_creator_idx" ON "exam_service"."lti_platforms" USING btree ("creator_id","created_at");--> statement-breakpoint
CREATE INDEX "lti_tool_keys_created_idx" ON "exam_service"."lti_tool_keys" USING btree ("created_at");--> statement-breakpoint
CREATE INDEX "lti_used_nonces_expires_idx" ON "exam_service"."lti_used_nonces" USING btree ("expires_at");