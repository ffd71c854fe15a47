-- Admits a candidate's message in one round trip: takes the conversation's row lock, then checks the
-- token budget and the messages of the window with fresh snapshots (each plpgsql statement gets one, so
-- concurrent messages of one attempt on any replica count exactly), then stores the message.
-- The commit does not wait for the WAL flush: this is on the path to the first token, and a database
-- crash can at worst forget the last fraction of a second of chat messages, never corrupt them.
CREATE FUNCTION "llm_gateway"."admit_user_message"(
  p_attempt_id text, p_exam_id text, p_owner_id text,
  p_message_id text, p_content text, p_attachment_text text, p_files jsonb, p_question_index integer,
  p_now timestamptz, p_window_start timestamptz, p_messages_per_window integer, p_tokens_per_attempt integer
) RETURNS TABLE (outcome text, oldest_in_window timestamptz, has_history boolean)
LANGUAGE plpgsql AS $$
DECLARE
  v_tokens integer;
  v_recent integer;
  v_oldest timestamptz;
  v_history boolean;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  INSERT INTO llm_gateway.conversations (attempt_id, exam_id, owner_id, created_at)
    VALUES (p_attempt_id, p_exam_id, p_owner_id, p_now)
    ON CONFLICT (attempt_id) DO NOTHING;
  SELECT c.tokens_used INTO v_tokens FROM llm_gateway.conversations c WHERE c.attempt_id = p_attempt_id FOR UPDATE;
  IF v_tokens >= p_tokens_per_attempt THEN
    RETURN QUERY SELECT 'tokens'::text, NULL::timestamptz, false;
    RETURN;
  END IF;
  SELECT count(*)::integer, min(m.created_at) INTO v_recent, v_oldest FROM llm_gateway.messages m
    WHERE m.attempt_id = p_attempt_id AND m.role = 'user' AND m.created_at > p_window_start;
  IF v_recent >= p_messages_per_window THEN
    RETURN QUERY SELECT 'messages'::text, v_oldest, false;
    RETURN;
  END IF;
  SELECT EXISTS (SELECT 1 FROM llm_gateway.messages m WHERE m.attempt_id = p_attempt_id) INTO v_history;
  INSERT INTO llm_gateway.messages (id, attempt_id, role, content, attachment_text, files, question_index, created_at)
    VALUES (p_message_id, p_attempt_id, 'user', p_content, p_attachment_text, p_files, p_question_index, p_now);
  RETURN QUERY SELECT 'ok'::text, NULL::timestamptz, v_history;
END
$$;
