import type { CandidateTables } from '@exam/server-kit/candidate-data';

/**
 * Where llm-gateway keeps a candidate's data (server-kit candidate-data.ts), children before parents. Every table of
 * src/db/schema.ts is here; privacy.test.ts fails for one that is not.
 */
export const GATEWAY_CANDIDATE_TABLES: CandidateTables = {
  messages: { by: 'attempt', column: 'attempt_id', omitFromExport: ['attachment_text'] },
  agent_calls: { by: 'attempt', column: 'attempt_id' },
  conversations: { by: 'attempt', column: 'attempt_id' },
  test_chat_messages: { by: 'none', reason: "the creator's own test chat" },
  exam_usage: { by: 'none', reason: "the exam's spend in total" },
  exam_usage_minutes: { by: 'none', reason: "the exam's spend per minute, summed over its candidates" },
  grading_usage: { by: 'none', reason: "the exam's grading spend in total" },
  solvability_checks: { by: 'none', reason: "the creator's check of a draft against the assistant" },
  assistant_audits: { by: 'none', reason: "the creator's pre-publish audit" },
  audit_attempts: { by: 'none', reason: "the pre-publish audit's simulated attempts, not candidates'" },
};
