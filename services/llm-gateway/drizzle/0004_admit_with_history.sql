-- admit_user_message also answers the conversation's history, so a candidate's later messages reach the
-- provider after one round trip instead of two: the last p_history_limit messages before the new one,
-- oldest first, without the gateway's own error replies (the provider never said those).
DROP FUNCTION "llm_gateway"."admit_user_message"(text, text, text, text, text, text, jsonb, integer, timestamptz, timestamptz, integer, integer);
--> statement-breakpoint
CREATE FUNCTION "llm_gateway"."admit_user_message"(
  p_attempt_id text, p_exam_id text, p_owner_id text,
  p_message_id text, p_content text, p_attachment_text text, p_files jsonb, p_question_index integer,
  p_now timestamptz, p_window_start timestamptz, p_messages_per_window integer, p_tokens_per_attempt integer,
  p_history_limit integer
) RETURNS TABLE (outcome text, oldest_in_window timestamptz, history jsonb)
LANGUAGE plpgsql AS $$
DECLARE
  v_tokens integer;
  v_recent integer;
  v_oldest timestamptz;
  v_history jsonb;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  INSERT INTO llm_gateway.conversations (attempt_id, exam_id, owner_id, created_at)
    VALUES (p_attempt_id, p_exam_id, p_owner_id, p_now)
    ON CONFLICT (attempt_id) DO NOTHING;
  SELECT c.tokens_used INTO v_tokens FROM llm_gateway.conversations c WHERE c.attempt_id = p_attempt_id FOR UPDATE;
  IF v_tokens >= p_tokens_per_attempt THEN
    RETURN QUERY SELECT 'tokens'::text, NULL::timestamptz, NULL::jsonb;
    RETURN;
  END IF;
  SELECT count(*)::integer, min(m.created_at) INTO v_recent, v_oldest FROM llm_gateway.messages m
    WHERE m.attempt_id = p_attempt_id AND m.role = 'user' AND m.created_at > p_window_start;
  IF v_recent >= p_messages_per_window THEN
    RETURN QUERY SELECT 'messages'::text, v_oldest, NULL::jsonb;
    RETURN;
  END IF;
  SELECT coalesce(jsonb_agg(jsonb_build_object('role', h.role, 'content', h.content, 'attachmentText', h.attachment_text) ORDER BY h.seq), '[]'::jsonb)
    INTO v_history
    FROM (SELECT m.role, m.content, m.attachment_text, m.seq FROM llm_gateway.messages m
          WHERE m.attempt_id = p_attempt_id AND NOT m.is_error
          ORDER BY m.seq DESC LIMIT greatest(p_history_limit, 0)) h;
  INSERT INTO llm_gateway.messages (id, attempt_id, role, content, attachment_text, files, question_index, created_at)
    VALUES (p_message_id, p_attempt_id, 'user', p_content, p_attachment_text, p_files, p_question_index, p_now);
  RETURN QUERY SELECT 'ok'::text, NULL::timestamptz, v_history;
END
$$;
--> statement-breakpoint
-- Takes back a message admitted while the attempt was being checked, when the check says the attempt is
-- closed (the two run side by side to keep the results-service call off the path to the first token).
CREATE FUNCTION "llm_gateway"."retract_user_message"(p_message_id text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_attempt_id text;
BEGIN
  DELETE FROM llm_gateway.messages m WHERE m.id = p_message_id AND m.role = 'user' RETURNING m.attempt_id INTO v_attempt_id;
  IF v_attempt_id IS NOT NULL THEN
    DELETE FROM llm_gateway.conversations c
      WHERE c.attempt_id = v_attempt_id AND NOT EXISTS (SELECT 1 FROM llm_gateway.messages m WHERE m.attempt_id = v_attempt_id);
  END IF;
END
$$;
