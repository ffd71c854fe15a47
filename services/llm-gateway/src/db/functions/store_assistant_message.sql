-- Stores a reply, adds its tokens to the attempt's total and to the exam's counters, and marks a reply the
-- guardrail stopped; with a client_message_id only the latest try stores its reply, in place of earlier tries'.
-- p_planted: on a reply asked to carry a planted error, which error and whether the reply contained it.
-- This file is the function's current text (packages/server-kit/src/sql-functions.ts). To change the function,
-- edit it here and add a migration that applies it (`pnpm db:generate --custom --name=<why>`, this text pasted
-- in); src/db/functions.test.ts fails while the database and this file differ.
CREATE OR REPLACE FUNCTION "llm_gateway"."store_assistant_message"(
  p_id text, p_attempt_id text, p_content text, p_question_index integer,
  p_is_error boolean, p_is_partial boolean, p_input_tokens integer, p_output_tokens integer, p_now timestamptz,
  p_is_withheld boolean, p_withheld_question_index integer, p_client_message_id text, p_try_id text,
  p_planted jsonb
) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  v_exam_id text;
  v_spent integer := p_input_tokens + p_output_tokens;
  v_try text;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  IF v_spent > 0 THEN
    SELECT c.exam_id INTO v_exam_id FROM llm_gateway.conversations c WHERE c.attempt_id = p_attempt_id;
    IF v_exam_id IS NOT NULL THEN
      UPDATE llm_gateway.exam_usage e SET tokens = e.tokens + v_spent WHERE e.exam_id = v_exam_id;
      INSERT INTO llm_gateway.exam_usage_minutes AS u (exam_id, minute, tokens)
        VALUES (v_exam_id, date_trunc('minute', p_now), v_spent)
        ON CONFLICT (exam_id, minute) DO UPDATE SET tokens = u.tokens + excluded.tokens;
    END IF;
  END IF;
  IF v_spent > 0 THEN
    UPDATE llm_gateway.conversations SET tokens_used = tokens_used + v_spent WHERE attempt_id = p_attempt_id;
  END IF;
  IF p_client_message_id IS NOT NULL THEN
    -- Only the latest try of a message stores its reply; an older one still running (another replica) spent its
    -- tokens, counted above, but its reply is dropped. The reply replaces what earlier tries stored (a partial).
    SELECT m.try_id INTO v_try FROM llm_gateway.messages m
      WHERE m.attempt_id = p_attempt_id AND m.role = 'user' AND m.client_message_id = p_client_message_id FOR UPDATE;
    IF v_try IS DISTINCT FROM p_try_id THEN
      RETURN false;
    END IF;
    DELETE FROM llm_gateway.messages m
      WHERE m.attempt_id = p_attempt_id AND m.role = 'assistant' AND m.client_message_id = p_client_message_id;
  END IF;
  INSERT INTO llm_gateway.messages (id, attempt_id, role, content, question_index, is_error, is_partial, is_withheld,
      withheld_question_index, input_tokens, output_tokens, created_at, client_message_id, planted)
    VALUES (p_id, p_attempt_id, 'assistant', p_content, p_question_index, p_is_error, p_is_partial, p_is_withheld,
      p_withheld_question_index, p_input_tokens, p_output_tokens, p_now, p_client_message_id, p_planted);
  RETURN true;
END
$$;
