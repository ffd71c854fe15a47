import { z } from 'zod';
import { AppError, ErrorCode } from './errors.ts';
import type { WorkspaceType } from './exam-settings.ts';
import type { CodingLanguage } from './question.ts';
import { WORKSPACE_UNAVAILABLE } from './workspace.ts';

/**
 * Why a part of the platform cannot serve right now, in two registers (docs/product.md#platform-status):
 * the operator's detail (which socket, which image, which script builds it) goes to the service's log and to the
 * admin status page; creators and candidates read what it means for them, in plain words, and never the detail.
 */

/** What is wrong, as far as the person who sees it needs to know. */
export const UNAVAILABLE_KINDS = [
  /** The engine (Docker, Kubernetes, the local editor) does not answer. */
  'engine-unreachable',
  /** The engine answers but refuses this service (rights, a missing namespace). */
  'engine-refused',
  /** The image (runner of a language, editor of a workspace type) is not installed. */
  'image-missing',
  /** Nothing is configured for it (no engine, no image for the workspace type). */
  'not-configured',
  /** It was there, and this one start or run failed. */
  'start-failed',
] as const;
export type UnavailableKind = (typeof UNAVAILABLE_KINDS)[number];

/** A reason in both registers: `kind` for people, `detail` for the operator's log and the admin status page only. */
export type Unavailable = { kind: UnavailableKind; detail: string };

/** Each coding language as people write its name. */
export const LANGUAGE_NAMES: Record<CodingLanguage, string> = {
  python: 'Python',
  javascript: 'JavaScript',
  sql: 'SQL',
  r: 'R',
  java: 'Java',
  cpp: 'C++',
};

const WORKSPACE_NAMES: Record<WorkspaceType, string> = {
  vscode: 'VS Code',
  'r-studio': 'R Studio',
  'oracle-sql': 'SQL',
  excel: 'spreadsheet',
};

const ASK_ADMIN = 'Ask your platform administrator: the status page shows what is missing.';

/**
 * Why code cannot run, for the creator who wrote the question and the candidate who pressed Run tests alike: what
 * it means (tests do not run now, answers are kept, a grader or a later run marks them) and who can fix it.
 */
export function plainRunnerUnavailable(kind: UnavailableKind, language: CodingLanguage): string {
  const name = LANGUAGE_NAMES[language];
  switch (kind) {
    case 'image-missing':
    case 'not-configured':
      return `${name} code cannot be run on this platform yet, so tests do not run for ${name} questions. Answers are kept and can be marked once it is set up. ${ASK_ADMIN}`;
    case 'engine-unreachable':
    case 'engine-refused':
      return `The code runner is not available right now, so tests cannot run. Answers are kept; try again in a few minutes. ${ASK_ADMIN}`;
    case 'start-failed':
      return 'This run could not start. Answers are kept; try again in a moment.';
  }
}

/** Why a candidate's workspace did not start, for the exam's creator (the candidate reads only that it is unavailable). */
export function plainWorkspaceUnavailable(kind: UnavailableKind, workspaceType?: WorkspaceType): string {
  const name = workspaceType ? `The ${WORKSPACE_NAMES[workspaceType]} workspace` : 'The coding workspace';
  switch (kind) {
    case 'image-missing':
    case 'not-configured':
      return `${name} is not installed on this platform yet, so candidates cannot open it. Their answers on the exam page are kept. ${ASK_ADMIN}`;
    case 'engine-unreachable':
    case 'engine-refused':
      return `The server that runs coding workspaces is not available right now, so the workspace could not open. The candidate's answers on the exam page are kept. ${ASK_ADMIN}`;
    case 'start-failed':
      return "The workspace did not start this time. The candidate's answers on the exam page are kept; opening it again usually works.";
  }
}

/**
 * A 503 whose message is already in plain words, carrying the operator's detail beside it for the log: the error
 * handler sends only the message; whoever catches it logs `detail` (start failures, runs).
 */
export class UnavailableError extends AppError {
  readonly kind: UnavailableKind;
  readonly detail: string;

  constructor(message: string, reason: Unavailable) {
    super(ErrorCode.UNAVAILABLE, message);
    this.kind = reason.kind;
    this.detail = reason.detail;
  }
}

/** The workspace's 503: the spec's title and the creator's plain reason; the detail stays on the error. */
export const workspaceUnavailableError = (reason: Unavailable, workspaceType?: WorkspaceType) =>
  new UnavailableError(`${WORKSPACE_UNAVAILABLE}: ${plainWorkspaceUnavailable(reason.kind, workspaceType)}`, reason);

/** One line of a service's status for the admin status page: what, its state, plain words and the operator's detail. */
export const StatusItemSchema = z.object({
  /** What it is about: 'database', 'runner: python', 'workspace: r-studio', 'mail queue'. */
  name: z.string(),
  state: z.enum(['ok', 'degraded', 'failing']),
  /** For the operator too, but in words a non-engineer reads ("Python code cannot run: its runner is not built"). */
  summary: z.string(),
  /** The operator's detail: sockets, images, scripts, error codes. Only ever sent to a platform administrator. */
  detail: z.string().optional(),
});
export type StatusItem = z.infer<typeof StatusItemSchema>;

/** GET /internal/status of each service (the internal token only). */
export const ServiceStatusSchema = z.object({
  service: z.string(),
  items: z.array(StatusItemSchema),
});
export type ServiceStatus = z.infer<typeof ServiceStatusSchema>;

/** GET /api/admin/status (exam-service, platform administrators only): every service's status, or why it is missing. */
export const PlatformStatusSchema = z.object({
  checkedAt: z.string(),
  services: z.array(
    z.object({
      service: z.string(),
      /** 'unreachable': the service did not answer its status within the deadline (the detail says how). */
      reachable: z.boolean(),
      elapsedMs: z.number(),
      items: z.array(StatusItemSchema),
    }),
  ),
});
export type PlatformStatus = z.infer<typeof PlatformStatusSchema>;

/** Who may read the platform's status: the operator's list of administrators' e-mails (ADMIN_EMAILS). */
export const AdminMessages = {
  forbidden: 'Only platform administrators can see the platform status',
} as const;

/** A reason's kind as the status page names it, beside the operator's detail. */
export const KIND_SUMMARIES: Record<UnavailableKind, string> = {
  'engine-unreachable': 'Not answering',
  'engine-refused': 'Refuses this service',
  'image-missing': 'Not installed',
  'not-configured': 'Not configured',
  'start-failed': 'Failed',
};

/** A status line from a reason (or its absence). */
export const statusItemOf = (name: string, reason: Unavailable | undefined, ok = 'Available'): StatusItem =>
  reason
    ? { name, state: 'failing', summary: KIND_SUMMARIES[reason.kind], detail: reason.detail }
    : { name, state: 'ok', summary: ok };
