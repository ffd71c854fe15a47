import type { CandidateTables } from '@exam/server-kit/candidate-data';

/**
 * Where results-service keeps a candidate's data (server-kit candidate-data.ts), children before parents: the order
 * an erasure deletes in. Every table of src/db/schema.ts is here; privacy.test.ts fails for one that is not.
 */
export const RESULTS_CANDIDATE_TABLES: CandidateTables = {
  follow_up_questions: { by: 'attempt', column: 'attempt_id' },
  follow_ups: { by: 'attempt', column: 'attempt_id' },
  grade_history: { by: 'result', column: 'result_id' },
  grading_suggestions: { by: 'result', column: 'result_id' },
  collaboration_judgements: { by: 'result', column: 'result_id' },
  answer_group_detachments: { by: 'result', column: 'result_id' },
  report_links: { by: 'result', column: 'result_id', omitFromExport: ['token_hash'] },
  lti_score_syncs: { by: 'attempt', column: 'attempt_id' },
  test_gradings: { by: 'attempt', column: 'attempt_id' },
  test_runs: { by: 'attempt', column: 'attempt_id' },
  answer_operations: { by: 'attempt', column: 'attempt_id' },
  answer_files: { by: 'attempt', column: 'attempt_id' },
  answers: { by: 'attempt', column: 'attempt_id' },
  events: { by: 'attempt', column: 'attempt_id' },
  attempt_presence: { by: 'attempt', column: 'attempt_id' },
  attempt_endings: { by: 'attempt', column: 'attempt_id' },
  results: { by: 'attempt', column: 'attempt_id' },
  attempts: {
    by: 'attempt',
    column: 'id',
    // The exam with its answer keys is the creator's, and the hashes are the candidate's secrets' (useless to them).
    omitFromExport: ['exam_snapshot', 'resume_secret_hashes', 'resume_code_hash', 'unlock_code_hash'],
  },
  overrides: { by: 'candidate', examColumn: 'exam_id', keyColumn: 'candidate_key' },
  suggestion_batches: { by: 'result-list', column: 'result_ids' },
  audit_events: { by: 'subject', column: 'subject', examColumn: 'exam_id' },
  // Reports are computed over every candidate (similar pairs name them): dropped, recomputed from what remains.
  insights_reports: { by: 'exam-cache', examColumn: 'exam_id' },
  insights_versions: { by: 'none', reason: 'change counters per exam shard: numbers only' },
  exam_keep_grades: { by: 'none', reason: "the exam's keep-grade setting" },
  announcements: { by: 'none', reason: 'the examiner’s messages to everyone sitting the exam' },
  start_counters: { by: 'none', reason: 'start counts per client address and window, pruned as windows pass' },
  receipt_keys: { by: 'none', reason: "the platform's signing keys" },
};
