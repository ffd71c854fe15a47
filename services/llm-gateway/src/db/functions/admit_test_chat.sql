-- Admits a creator's Test Assistant message against the per-creator limit, in one round trip: a
-- transaction-scoped advisory lock on the creator serialises concurrent messages (on any replica), rows
-- older than the window are dropped, the rest are counted, and the message is recorded when under the limit.
-- This file is the function's current text (packages/server-kit/src/sql-functions.ts). To change the function,
-- edit it here and add a migration that applies it (`pnpm db:generate --custom --name=<why>`, this text pasted
-- in); src/db/functions.test.ts fails while the database and this file differ.
CREATE OR REPLACE FUNCTION "llm_gateway"."admit_test_chat"(
  p_creator_id text, p_now timestamptz, p_window_start timestamptz, p_limit integer
) RETURNS TABLE (admitted boolean, oldest_in_window timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  v_recent integer;
  v_oldest timestamptz;
BEGIN
  PERFORM pg_advisory_xact_lock(hashtext('llm_gateway.test_chat:' || p_creator_id));
  DELETE FROM llm_gateway.test_chat_messages t WHERE t.creator_id = p_creator_id AND t.created_at <= p_window_start;
  SELECT count(*)::integer, min(t.created_at) INTO v_recent, v_oldest FROM llm_gateway.test_chat_messages t WHERE t.creator_id = p_creator_id;
  IF v_recent >= p_limit THEN
    RETURN QUERY SELECT false, v_oldest;
    RETURN;
  END IF;
  INSERT INTO llm_gateway.test_chat_messages (creator_id, created_at) VALUES (p_creator_id, p_now);
  RETURN QUERY SELECT true, NULL::timestamptz;
END
$$;
