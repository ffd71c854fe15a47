import { workspaceAiOf } from '@exam/domain/exam';
import type { Question } from '@exam/domain/question';
import { WORKSPACE_FOLDER } from '@exam/domain/workspace';
import { agentEnvironment, type WorkspaceAgentClaims } from '@exam/domain/workspace-agents';
import type { WorkspaceRow } from '../../db/schema.ts';
import type { WorkspaceExam } from '../../deps.ts';
import type { WorkspaceEngine, WorkspaceWrite } from '../../engine/engine.ts';

/**
 * What a workspace is given when it is handed to an attempt (a cold start or a warm container claimed): the
 * agentic tasks' starter files on its first start, and with an agent the agent's settings. Both are written into
 * the running container, since a warm container was started before its attempt was known.
 */

/** The images' HOME (infra/workspaces/vscode/Dockerfile: the root filesystem is read-only, /tmp is not). */
export const WORKSPACE_HOME = '/tmp/home';
/**
 * The agent's settings, `KEY=value` lines of agentEnvironment(): the vscode image's shells source
 * `$HOME/.exam-agent.env` (infra/workspaces/vscode), so the agent the candidate starts in the terminal finds them.
 */
export const AGENT_ENV_FILE = '.exam-agent.env';
/** How long an agent token outlives the attempt's deadline (a call in flight at the deadline still ends). */
export const AGENT_TOKEN_GRACE_MS = 15 * 60_000;
/** The longest an agent token lives, deadline or not. */
export const AGENT_TOKEN_MAX_MS = 12 * 3600_000;

/** A question's files in the workspace: its starter repository (never its hidden files), a SQL question's setup. */
function filesOf(q: Question, workspaceType: string): WorkspaceWrite[] {
  if (q.type !== 'coding') return [];
  const files: WorkspaceWrite[] = (q.repository?.files ?? []).map((f) => ({ path: f.path, content: f.content }));
  if (workspaceType === 'oracle-sql' && q.language === 'sql' && q.setupScript.trim())
    files.push({ path: 'setup.sql', content: q.setupScript });
  return files;
}

/**
 * The starter files of an exam's workspace, relative to the workspace folder: at its root when one question brings
 * files, under `q<N>/` (N the question's number in the exam) for each when several do.
 */
export function starterFiles(exam: Pick<WorkspaceExam, 'questions' | 'codingWorkspace'>): WorkspaceWrite[] {
  const seeded = exam.questions
    .map((q, i) => ({ n: i + 1, files: filesOf(q, exam.codingWorkspace.workspaceType) }))
    .filter((q) => q.files.length > 0);
  if (seeded.length === 1) return seeded[0]!.files;
  return seeded.flatMap(({ n, files }) => files.map((f) => ({ ...f, path: `q${n}/${f.path}` })));
}

/** Shell-safe `KEY=value` lines (a value with anything but plain URL and token characters is single-quoted). */
export function agentEnvFile(env: Record<string, string>): string {
  const quote = (value: string) => (/^[\w.:/@+,=-]*$/.test(value) ? value : `'${value.replace(/'/g, `'\\''`)}'`);
  return Object.entries(env)
    .map(([key, value]) => `${key}=${quote(value)}\n`)
    .join('');
}

/** When an agent token expires: shortly after the attempt's deadline, and never more than 12 h from now. */
export function agentTokenExpiry(now: Date, deadline: string | null): Date {
  const longest = now.getTime() + AGENT_TOKEN_MAX_MS;
  const end = deadline ? Date.parse(deadline) + AGENT_TOKEN_GRACE_MS : longest;
  return new Date(Math.max(now.getTime() + 60_000, Math.min(end, longest)));
}

export type SignAgentToken = (claims: WorkspaceAgentClaims, expiresAt: Date) => string;

export function createWorkspaceSetup(deps: { clock: { now(): Date }; signAgentToken: SignAgentToken }) {
  /** The agent's settings file, or nothing when the exam has no agent in the workspace. */
  async function agentFile(
    engine: WorkspaceEngine,
    row: WorkspaceRow,
    exam: WorkspaceExam,
    deadline: string | null,
  ): Promise<WorkspaceWrite | undefined> {
    const ai = workspaceAiOf(exam);
    if (ai.mode !== 'agent' || !ai.agent || !row.attemptId || !row.examId) return undefined;
    const relayBaseUrl = await engine.agentBaseUrl?.(row.egress === 'registries' ? 'registries' : 'none');
    if (!relayBaseUrl) throw new Error(`the ${engine.kind} engine gives workspaces no way to the exam's AI gateway`);
    const claims: WorkspaceAgentClaims = {
      kind: 'workspace-agent',
      sub: row.attemptId,
      examId: row.examId,
      sessionId: row.id,
      agent: ai.agent,
    };
    const token = deps.signAgentToken(claims, agentTokenExpiry(deps.clock.now(), deadline));
    const { provider, model } = exam.aiSettings;
    const env = agentEnvironment({ relayBaseUrl, token, agent: ai.agent, provider, model });
    return { path: AGENT_ENV_FILE, content: agentEnvFile(env), mode: 0o600 };
  }

  return {
    /**
     * Writes what the attempt's workspace starts with; `firstStart` (a new volume) adds the starter files, which a
     * restarted or resumed workspace never gets again: it keeps the candidate's own.
     */
    async setUp(
      engine: WorkspaceEngine,
      row: WorkspaceRow,
      exam: WorkspaceExam,
      opts: { deadline: string | null; firstStart: boolean },
    ): Promise<void> {
      const starter = opts.firstStart ? starterFiles(exam) : [];
      const agent = await agentFile(engine, row, exam, opts.deadline);
      if (!starter.length && !agent) return;
      if (!row.handle || !engine.writeFiles)
        throw new Error(`the ${engine.kind} engine cannot write files into a running workspace`);
      if (starter.length) await engine.writeFiles(row.handle, WORKSPACE_FOLDER, starter);
      if (agent) await engine.writeFiles(row.handle, WORKSPACE_HOME, [agent]);
    },
  };
}
export type WorkspaceSetup = ReturnType<typeof createWorkspaceSetup>;
