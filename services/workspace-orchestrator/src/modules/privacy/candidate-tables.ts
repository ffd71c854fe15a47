import type { CandidateTables } from '@exam/server-kit/candidate-data';

/**
 * Where workspace-orchestrator keeps a candidate's data (server-kit candidate-data.ts), children before parents. The
 * volumes' files themselves live in the engine and are removed first (engine-cleanup.ts). Every table of
 * src/db/schema.ts is here; privacy.test.ts fails for one that is not.
 */
export const WORKSPACE_CANDIDATE_TABLES: CandidateTables = {
  launch_tokens: { by: 'attempt', column: 'attempt_id', omitFromExport: ['token_hash'] },
  file_versions: { by: 'attempt', column: 'attempt_id' },
  file_histories: { by: 'attempt', column: 'attempt_id' },
  code_runs: { by: 'attempt', column: 'attempt_id' },
  start_failures: { by: 'attempt', column: 'attempt_id' },
  workspaces: { by: 'attempt', column: 'attempt_id', omitFromExport: ['editor_password', 'editor_cookie'] },
  volumes: { by: 'attempt', column: 'attempt_id' },
};
