-- Takes back an admitted message (its attempt turned out to be closed) and its request from the exam's counters.
-- This file is the function's current text (packages/server-kit/src/sql-functions.ts). To change the function,
-- edit it here and add a migration that applies it (`pnpm db:generate --custom --name=<why>`, this text pasted
-- in); src/db/functions.test.ts fails while the database and this file differ.
CREATE OR REPLACE FUNCTION "llm_gateway"."retract_user_message"(p_message_id text) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_attempt_id text;
  v_exam_id text;
  v_created_at timestamptz;
BEGIN
  SELECT m.attempt_id, m.created_at, c.exam_id INTO v_attempt_id, v_created_at, v_exam_id
    FROM llm_gateway.messages m JOIN llm_gateway.conversations c ON c.attempt_id = m.attempt_id
    WHERE m.id = p_message_id AND m.role = 'user';
  IF v_attempt_id IS NULL THEN
    RETURN;
  END IF;
  PERFORM 1 FROM llm_gateway.exam_usage e WHERE e.exam_id = v_exam_id FOR UPDATE;
  DELETE FROM llm_gateway.messages m WHERE m.id = p_message_id AND m.role = 'user';
  IF NOT FOUND THEN
    RETURN;
  END IF;
  UPDATE llm_gateway.exam_usage e SET requests = greatest(e.requests - 1, 0) WHERE e.exam_id = v_exam_id;
  UPDATE llm_gateway.exam_usage_minutes u SET requests = greatest(u.requests - 1, 0)
    WHERE u.exam_id = v_exam_id AND u.minute = date_trunc('minute', v_created_at);
  DELETE FROM llm_gateway.conversations c
    WHERE c.attempt_id = v_attempt_id AND NOT EXISTS (SELECT 1 FROM llm_gateway.messages m WHERE m.attempt_id = v_attempt_id);
END
$$;
