-- Checks a candidate's message against the attempt's and the exam's budgets under the exam's and the
-- conversation's row locks, and stores it with the history the provider is sent, in one round trip. A message
-- sent again with the same client_message_id (a retry after a cut stream) answers 'seen' and is not counted twice.
-- `turn` is how many earlier user messages of the attempt were about the same question (reliance calibration's turn
-- number, @exam/domain/planted-errors isPlantedTurn): counted before the message is stored, and for a message seen
-- before, before that one, so every try of a message gets the same number.
-- This file is the function's current text (packages/server-kit/src/sql-functions.ts). To change the function,
-- edit it here and add a migration that applies it (`pnpm db:generate --custom --name=<why>`, this text pasted
-- in); src/db/functions.test.ts fails while the database and this file differ.
CREATE OR REPLACE FUNCTION "llm_gateway"."admit_user_message"(
  p_attempt_id text, p_exam_id text, p_owner_id text,
  p_message_id text, p_content text, p_attachment_text text, p_files jsonb, p_question_index integer,
  p_now timestamptz, p_window_start timestamptz, p_messages_per_window integer, p_tokens_per_attempt integer,
  p_history_limit integer, p_exam_requests_per_hour integer, p_exam_tokens_per_hour bigint,
  p_client_message_id text, p_try_id text
) RETURNS TABLE (outcome text, oldest_in_window timestamptz, history jsonb, retry_at timestamptz, seen_message_id text,
  turn integer)
LANGUAGE plpgsql AS $$
DECLARE
  v_minute timestamptz := date_trunc('minute', p_now);
  v_hour_start timestamptz := date_trunc('minute', p_now) - interval '59 minutes';
  v_exam_requests bigint;
  v_exam_tokens bigint;
  v_tokens integer;
  v_recent integer;
  v_oldest timestamptz;
  v_retry timestamptz;
  v_refused text;
  v_history jsonb;
  v_seen text;
  v_seen_seq bigint;
  v_turn integer;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  INSERT INTO llm_gateway.exam_usage (exam_id) VALUES (p_exam_id) ON CONFLICT (exam_id) DO NOTHING;
  PERFORM 1 FROM llm_gateway.exam_usage e WHERE e.exam_id = p_exam_id FOR UPDATE;
  DELETE FROM llm_gateway.exam_usage_minutes u WHERE u.exam_id = p_exam_id AND u.minute < v_hour_start;
  SELECT coalesce(sum(u.requests), 0), coalesce(sum(u.tokens), 0) INTO v_exam_requests, v_exam_tokens
    FROM llm_gateway.exam_usage_minutes u WHERE u.exam_id = p_exam_id;

  INSERT INTO llm_gateway.conversations (attempt_id, exam_id, owner_id, created_at)
    VALUES (p_attempt_id, p_exam_id, p_owner_id, p_now)
    ON CONFLICT (attempt_id) DO NOTHING;
  SELECT c.tokens_used INTO v_tokens FROM llm_gateway.conversations c WHERE c.attempt_id = p_attempt_id FOR UPDATE;
  -- A message sent again (a retry after a cut stream) was admitted and counted the first time: it is neither
  -- checked nor counted again. Under the conversation's row lock, two tries of one new message cannot both insert.
  IF p_client_message_id IS NOT NULL THEN
    SELECT m.id, m.seq INTO v_seen, v_seen_seq FROM llm_gateway.messages m
      WHERE m.attempt_id = p_attempt_id AND m.role = 'user' AND m.client_message_id = p_client_message_id;
    IF v_seen IS NOT NULL THEN
      IF p_question_index IS NOT NULL THEN
        SELECT count(*)::integer INTO v_turn FROM llm_gateway.messages m
          WHERE m.attempt_id = p_attempt_id AND m.role = 'user' AND m.question_index = p_question_index
            AND m.seq < v_seen_seq;
      END IF;
      RETURN QUERY SELECT 'seen'::text, NULL::timestamptz, NULL::jsonb, NULL::timestamptz, v_seen, v_turn;
      RETURN;
    END IF;
  END IF;
  IF v_tokens >= p_tokens_per_attempt THEN
    v_refused := 'tokens';
  ELSE
    SELECT count(*)::integer, min(m.created_at) INTO v_recent, v_oldest FROM llm_gateway.messages m
      WHERE m.attempt_id = p_attempt_id AND m.role = 'user' AND m.created_at > p_window_start;
    IF v_recent >= p_messages_per_window THEN
      v_refused := 'messages';
    ELSIF v_exam_requests >= p_exam_requests_per_hour THEN
      v_refused := 'exam_requests';
      -- The first minute whose leaving the window brings the count under the limit.
      SELECT t.minute + interval '60 minutes' INTO v_retry FROM (
        SELECT u.minute, sum(u.requests) OVER (ORDER BY u.minute) AS freed
        FROM llm_gateway.exam_usage_minutes u WHERE u.exam_id = p_exam_id
      ) t WHERE v_exam_requests - t.freed < p_exam_requests_per_hour ORDER BY t.minute LIMIT 1;
    ELSIF v_exam_tokens >= p_exam_tokens_per_hour THEN
      v_refused := 'exam_tokens';
      SELECT t.minute + interval '60 minutes' INTO v_retry FROM (
        SELECT u.minute, sum(u.tokens) OVER (ORDER BY u.minute) AS freed
        FROM llm_gateway.exam_usage_minutes u WHERE u.exam_id = p_exam_id
      ) t WHERE v_exam_tokens - t.freed < p_exam_tokens_per_hour ORDER BY t.minute LIMIT 1;
    END IF;
  END IF;

  IF v_refused IS NOT NULL THEN
    UPDATE llm_gateway.exam_usage e SET
      refused_exam_requests = e.refused_exam_requests + (v_refused = 'exam_requests')::integer,
      refused_exam_tokens = e.refused_exam_tokens + (v_refused = 'exam_tokens')::integer,
      refused_attempt_messages = e.refused_attempt_messages + (v_refused = 'messages')::integer,
      refused_attempt_tokens = e.refused_attempt_tokens + (v_refused = 'tokens')::integer
      WHERE e.exam_id = p_exam_id;
    INSERT INTO llm_gateway.exam_usage_minutes AS u
      (exam_id, minute, refused_exam_requests, refused_exam_tokens, refused_attempt_messages, refused_attempt_tokens)
      VALUES (p_exam_id, v_minute, (v_refused = 'exam_requests')::integer, (v_refused = 'exam_tokens')::integer,
              (v_refused = 'messages')::integer, (v_refused = 'tokens')::integer)
      ON CONFLICT (exam_id, minute) DO UPDATE SET
        refused_exam_requests = u.refused_exam_requests + excluded.refused_exam_requests,
        refused_exam_tokens = u.refused_exam_tokens + excluded.refused_exam_tokens,
        refused_attempt_messages = u.refused_attempt_messages + excluded.refused_attempt_messages,
        refused_attempt_tokens = u.refused_attempt_tokens + excluded.refused_attempt_tokens;
    RETURN QUERY SELECT v_refused, v_oldest, NULL::jsonb, v_retry, NULL::text, NULL::integer;
    RETURN;
  END IF;

  SELECT coalesce(jsonb_agg(jsonb_build_object('role', h.role, 'content', h.content, 'attachmentText', h.attachment_text) ORDER BY h.seq), '[]'::jsonb)
    INTO v_history
    FROM (SELECT m.role, m.content, m.attachment_text, m.seq FROM llm_gateway.messages m
          WHERE m.attempt_id = p_attempt_id AND NOT m.is_error
          ORDER BY m.seq DESC LIMIT greatest(p_history_limit, 0)) h;
  IF p_question_index IS NOT NULL THEN
    SELECT count(*)::integer INTO v_turn FROM llm_gateway.messages m
      WHERE m.attempt_id = p_attempt_id AND m.role = 'user' AND m.question_index = p_question_index;
  END IF;
  INSERT INTO llm_gateway.messages (id, attempt_id, role, content, attachment_text, files, question_index, created_at,
      client_message_id, try_id)
    VALUES (p_message_id, p_attempt_id, 'user', p_content, p_attachment_text, p_files, p_question_index, p_now,
      p_client_message_id, p_try_id);
  UPDATE llm_gateway.exam_usage e SET requests = e.requests + 1 WHERE e.exam_id = p_exam_id;
  INSERT INTO llm_gateway.exam_usage_minutes AS u (exam_id, minute, requests) VALUES (p_exam_id, v_minute, 1)
    ON CONFLICT (exam_id, minute) DO UPDATE SET requests = u.requests + 1;
  RETURN QUERY SELECT 'ok'::text, NULL::timestamptz, v_history, NULL::timestamptz, NULL::text, v_turn;
END
$$;
