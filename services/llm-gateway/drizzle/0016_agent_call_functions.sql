-- Custom migration: the agent endpoint's admission and ending of a workspace agent's call (modules/agent-endpoint).
-- The texts are src/db/functions/<name>.sql as of this migration.
CREATE OR REPLACE FUNCTION "llm_gateway"."admit_agent_call"(
  p_call_id text, p_attempt_id text, p_exam_id text, p_owner_id text, p_session_id text,
  p_agent text, p_wire text, p_model text, p_input text, p_tool_results jsonb, p_now timestamptz,
  p_tokens_per_attempt integer, p_exam_requests_per_hour integer, p_exam_tokens_per_hour bigint
) RETURNS TABLE (outcome text, retry_at timestamptz)
LANGUAGE plpgsql AS $$
DECLARE
  v_minute timestamptz := date_trunc('minute', p_now);
  v_hour_start timestamptz := date_trunc('minute', p_now) - interval '59 minutes';
  v_exam_requests bigint;
  v_exam_tokens bigint;
  v_tokens integer;
  v_retry timestamptz;
  v_refused text;
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

  IF v_tokens >= p_tokens_per_attempt THEN
    v_refused := 'tokens';
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

  IF v_refused IS NOT NULL THEN
    UPDATE llm_gateway.exam_usage e SET
      refused_exam_requests = e.refused_exam_requests + (v_refused = 'exam_requests')::integer,
      refused_exam_tokens = e.refused_exam_tokens + (v_refused = 'exam_tokens')::integer,
      refused_attempt_tokens = e.refused_attempt_tokens + (v_refused = 'tokens')::integer
      WHERE e.exam_id = p_exam_id;
    INSERT INTO llm_gateway.exam_usage_minutes AS u
      (exam_id, minute, refused_exam_requests, refused_exam_tokens, refused_attempt_tokens)
      VALUES (p_exam_id, v_minute, (v_refused = 'exam_requests')::integer, (v_refused = 'exam_tokens')::integer,
              (v_refused = 'tokens')::integer)
      ON CONFLICT (exam_id, minute) DO UPDATE SET
        refused_exam_requests = u.refused_exam_requests + excluded.refused_exam_requests,
        refused_exam_tokens = u.refused_exam_tokens + excluded.refused_exam_tokens,
        refused_attempt_tokens = u.refused_attempt_tokens + excluded.refused_attempt_tokens;
  ELSE
    UPDATE llm_gateway.exam_usage e SET requests = e.requests + 1 WHERE e.exam_id = p_exam_id;
    INSERT INTO llm_gateway.exam_usage_minutes AS u (exam_id, minute, requests) VALUES (p_exam_id, v_minute, 1)
      ON CONFLICT (exam_id, minute) DO UPDATE SET requests = u.requests + 1;
  END IF;

  INSERT INTO llm_gateway.agent_calls (id, attempt_id, exam_id, owner_id, session_id, agent, wire, model, status,
      reason, input, tool_results, started_at, finished_at)
    VALUES (p_call_id, p_attempt_id, p_exam_id, p_owner_id, p_session_id, p_agent, p_wire, p_model,
      CASE WHEN v_refused IS NULL THEN 'running' ELSE 'refused' END, v_refused, p_input, p_tool_results, p_now,
      CASE WHEN v_refused IS NULL THEN NULL ELSE p_now END);
  RETURN QUERY SELECT coalesce(v_refused, 'ok'), v_retry;
END
$$;
--> statement-breakpoint
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
