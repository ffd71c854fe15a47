-- Ends an admitted agent call (modules/agent-endpoint): its status, what reached the agent (reply text and tool
-- calls) and its tokens, which are added to the attempt's total (conversations.tokens_used) and the exam's counters
-- as store_assistant_message adds a reply's. Only a running call is ended, so a call is never counted twice.
-- This file is the function's current text (packages/server-kit/src/sql-functions.ts). To change the function,
-- edit it here and add a migration that applies it (`pnpm db:generate --custom --name=<why>`, this text pasted
-- in); src/db/functions.test.ts fails while the database and this file differ.
CREATE OR REPLACE FUNCTION "llm_gateway"."finish_agent_call"(
  p_call_id text, p_status text, p_reason text, p_reply text, p_tool_calls jsonb,
  p_input_tokens integer, p_output_tokens integer, p_now timestamptz
) RETURNS boolean
LANGUAGE plpgsql AS $$
DECLARE
  v_attempt_id text;
  v_exam_id text;
  v_spent integer := p_input_tokens + p_output_tokens;
BEGIN
  PERFORM set_config('synchronous_commit', 'off', true);
  UPDATE llm_gateway.agent_calls a SET status = p_status, reason = p_reason, reply = p_reply,
      tool_calls = p_tool_calls, input_tokens = p_input_tokens, output_tokens = p_output_tokens, finished_at = p_now
    WHERE a.id = p_call_id AND a.status = 'running'
    RETURNING a.attempt_id, a.exam_id INTO v_attempt_id, v_exam_id;
  IF v_attempt_id IS NULL THEN
    RETURN false;
  END IF;
  IF v_spent > 0 THEN
    UPDATE llm_gateway.exam_usage e SET tokens = e.tokens + v_spent WHERE e.exam_id = v_exam_id;
    INSERT INTO llm_gateway.exam_usage_minutes AS u (exam_id, minute, tokens)
      VALUES (v_exam_id, date_trunc('minute', p_now), v_spent)
      ON CONFLICT (exam_id, minute) DO UPDATE SET tokens = u.tokens + excluded.tokens;
    UPDATE llm_gateway.conversations SET tokens_used = tokens_used + v_spent WHERE attempt_id = v_attempt_id;
  END IF;
  RETURN true;
END
$$;
