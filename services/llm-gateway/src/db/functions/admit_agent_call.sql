-- Admits one call of a workspace's coding agent (modules/agent-endpoint) against the attempt's tokens and the exam's
-- hourly requests and tokens, under the same row locks as admit_user_message (the exam's usage row, then the
-- conversation's), so agent calls and chat messages of one attempt and one exam are counted against one budget.
-- An admitted call is stored as 'running' and counted as one request; a refused one is stored as 'refused' with the
-- budget that refused it and counted on the exam's refusal counters. retry_at: when the sliding hour has room again.
-- This file is the function's current text (packages/server-kit/src/sql-functions.ts). To change the function,
-- edit it here and add a migration that applies it (`pnpm db:generate --custom --name=<why>`, this text pasted
-- in); src/db/functions.test.ts fails while the database and this file differ.
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
