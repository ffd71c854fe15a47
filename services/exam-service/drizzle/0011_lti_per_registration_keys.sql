ALTER TABLE "exam_service"."lti_platforms" ADD COLUMN "token_origin" text;--> statement-breakpoint
ALTER TABLE "exam_service"."lti_tool_keys" ADD COLUMN "platform_id" text;--> statement-breakpoint
ALTER TABLE "exam_service"."lti_tool_keys" ADD CONSTRAINT "lti_tool_keys_platform_id_lti_platforms_id_fk" FOREIGN KEY ("platform_id") REFERENCES "exam_service"."lti_platforms"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
-- The token endpoint's origin of every registration (scheme and host lower-cased, the default port dropped, as
-- URL.origin gives it). A client ID at one token endpoint is one LMS tenant's trust in this tool: only the oldest
-- registration of each pair keeps it; a later one (what borrowing another creator's LMS looked like) keeps a null
-- origin, which suspends it (no login, no score, no roster) until its owner corrects it or deletes it.
WITH parsed AS (
  SELECT id, client_id, created_at,
         lower(substring(auth_token_url from '^([A-Za-z][A-Za-z0-9+.-]*)://')) AS scheme,
         lower(substring(auth_token_url from '^[A-Za-z][A-Za-z0-9+.-]*://(?:[^/?#@]*@)?([^/?#]+)')) AS host_port
  FROM "exam_service"."lti_platforms"
), origins AS (
  SELECT id, client_id, created_at,
         scheme || '://' || CASE
           WHEN scheme = 'https' THEN regexp_replace(host_port, ':443$', '')
           WHEN scheme = 'http' THEN regexp_replace(host_port, ':80$', '')
           ELSE host_port
         END AS origin
  FROM parsed
), ranked AS (
  SELECT id, origin, row_number() OVER (PARTITION BY client_id, origin ORDER BY created_at, id) AS rank
  FROM origins
)
UPDATE "exam_service"."lti_platforms" p SET token_origin = ranked.origin
FROM ranked WHERE ranked.id = p.id AND ranked.rank = 1;--> statement-breakpoint
-- The one shared key signed for every registration, so an LMS that trusts /lti/jwks trusted every creator's
-- assertions. It is retired rather than handed to one registration (which one would be arbitrary, and the others
-- would still share it): each registration makes its own key on its next message, published in /lti/jwks before it
-- signs anything (an LMS meeting the new kid fetches the set again, Security Framework 1.0 §6.3), and the retired key
-- stays published for LTI_KEY_GRACE_SECONDS for messages signed before the upgrade.
UPDATE "exam_service"."lti_tool_keys" SET retired_at = now() WHERE retired_at IS NULL AND platform_id IS NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "lti_platforms_client_token_origin_idx" ON "exam_service"."lti_platforms" USING btree ("client_id","token_origin");--> statement-breakpoint
CREATE INDEX "lti_tool_keys_platform_idx" ON "exam_service"."lti_tool_keys" USING btree ("platform_id","created_at");
