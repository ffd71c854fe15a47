-- Stores an assistant reply and adds its tokens to the attempt's total in one round trip, without
-- waiting for the WAL flush (as admit_user_message: a database crash can at worst forget the last
-- fraction of a second of replies, never corrupt them).
CREATE FUNCTION "llm_gateway"."store_assistant_message"(
  p_id text, p_attempt_id text, p_content text, p_question_index integer,
  p_is_error boolean, p_is_partial boolean, p_input_tokens integer, p_output_tokens integer, p_now timestamptz
) RETURNS void
LANGUAGE plpgsql AS $$
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  INSERT INTO llm_gateway.messages (id, attempt_id, role, content, question_index, is_error, is_partial, input_tokens, output_tokens, created_at)
    VALUES (p_id, p_attempt_id, 'assistant', p_content, p_question_index, p_is_error, p_is_partial, p_input_tokens, p_output_tokens, p_now);
  IF p_input_tokens + p_output_tokens > 0 THEN
    UPDATE llm_gateway.conversations SET tokens_used = tokens_used + p_input_tokens + p_output_tokens WHERE attempt_id = p_attempt_id;
  END IF;
END
$$;
--> statement-breakpoint
-- Admits a creator's Test Assistant message against the per-creator limit, in one round trip: a
-- transaction-scoped advisory lock on the creator serialises concurrent messages (on any replica), rows
-- older than the window are dropped, the rest are counted, and the message is recorded when under the limit.
CREATE FUNCTION "llm_gateway"."admit_test_chat"(
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
