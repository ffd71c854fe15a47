import { workspaceAiOf } from '@exam/domain/exam';
import {
  allowedLanguages,
  questionWorkspaceFiles,
  repositoryRoots,
  starterCodeFor,
  workspaceFileFor,
} from '@exam/domain/coding';
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

/**
 * The starter files of an exam's workspace, relative to the workspace folder: each coding question's own file
 * (questionFiles), each agentic task's starter repository
 * (never its hidden files) where repositoryRoots places it — the root when one question has a repository, `q<N>/`
 * (N the question's number in the exam) when several, the same map results-service keeps to grade from — and, on an
 * Oracle SQL workspace, the first SQL question's setup script as `setup.sql` at the root, where the workbench
 * applies it.
 */
export function starterFiles(exam: Pick<WorkspaceExam, 'questions' | 'codingWorkspace'>): WorkspaceWrite[] {
  const roots = repositoryRoots(exam.questions);
  const files: WorkspaceWrite[] = exam.questions.flatMap((q) =>
    q.type === 'coding' && q.repository
      ? q.repository.files.map((f) => ({ path: `${roots[q.id] ?? ''}${f.path}`, content: f.content }))
      : [],
  );
  files.push(...questionFiles(exam.questions, new Set(files.map((f) => f.path))));
  const sql = exam.questions.find((q) => q.type === 'coding' && q.language === 'sql' && q.setupScript.trim());
  if (exam.codingWorkspace.workspaceType === 'oracle-sql' && sql && !files.some((f) => f.path === 'setup.sql'))
    files.push({ path: 'setup.sql', content: sql.setupScript });
  return files;
}

/**
 * Each coding question's own file (questionWorkspaceFiles: `q<N>-<slug>/main.py`, the creator's path, or an agentic
 * task's source file), holding its starter code, one per language the candidate may choose: the file the taker's
 * page opens the workspace on and grading reads (docs/product.md#the-coding-workspace). A path the repository
 * already fills keeps the repository's file; an agentic task gets its source file only when it has starter code.
 */
export function questionFiles(questions: readonly Question[], taken: ReadonlySet<string>): WorkspaceWrite[] {
  const paths = questionWorkspaceFiles(questions);
  const files: WorkspaceWrite[] = [];
  const seen = new Set(taken);
  for (const q of questions) {
    const path = paths[q.id];
    if (!path) continue;
    for (const language of allowedLanguages(q)) {
      const file = workspaceFileFor({ language: q.language, workspaceFile: path }, language)!;
      const content = starterCodeFor(q, language);
      if (seen.has(file) || (q.repository && !content)) continue;
      seen.add(file);
      files.push({ path: file, content });
    }
  }
  return files;
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
