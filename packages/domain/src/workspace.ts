import { z } from 'zod';
import { CodingLanguageSchema } from './question.ts';
import { WorkspaceTypeSchema } from './exam-settings.ts';
import { WorkspaceAgentSchema } from './workspace-ai.ts';

/** Coding workspace sessions (docs/product.md#the-coding-workspace). */

/** The spec's failure title; every 'no workspace' reason starts with it so the panel can show it as is. */
export const WORKSPACE_UNAVAILABLE = 'Workspace Unavailable';
export const workspaceUnavailable = (reason: string) => `${WORKSPACE_UNAVAILABLE}: ${reason}`;

/**
 * Why an attempt's workspace did not start (GET /api/session/attempts/{attemptId}/start-failure), for the
 * exam's creator only; the candidate's answer says just WORKSPACE_UNAVAILABLE.
 */
export const WorkspaceStartFailureSchema = z.object({
  attemptId: z.string(),
  /** The technical reason of the latest failed try ('the Docker engine at … is not reachable (ENOENT)'). */
  reason: z.string(),
  failures: z.number().int().positive(),
  firstFailedAt: z.string(),
  lastFailedAt: z.string(),
});
export type WorkspaceStartFailure = z.infer<typeof WorkspaceStartFailureSchema>;
export const WorkspaceStartFailureResponseSchema = z.object({ failure: WorkspaceStartFailureSchema.nullable() });

/** The folder the editor opens and the one collected on submit. */
export const WORKSPACE_FOLDER = '/home/coder/workspace';

/** Spec section 7: the workspace user id has whitespace replaced by underscores. */
export function toWorkspaceUserId(userId: string): string {
  return userId.replace(/\s+/g, '_');
}

/** The editor's address behind the orchestrator's proxy; no container port is ever published. */
export function editorPathOf(sessionId: string): string {
  return `/workspace/${sessionId}/`;
}

/** POST /api/session/create body. The attempt token is the authority; these fields are advisory. */
export const CreateSessionSchema = z
  .object({
    userId: z.string().max(300).transform(toWorkspaceUserId).optional(),
    examId: z.string().max(64).optional(),
  })
  .default({});
export type CreateSession = z.infer<typeof CreateSessionSchema>;

export const SESSION_STATUSES = ['starting', 'ready', 'ended', 'failed'] as const;
export const SessionStatusSchema = z.enum(SESSION_STATUSES);
export type SessionStatus = z.infer<typeof SessionStatusSchema>;

export const SessionSchema = z.object({
  sessionId: z.string(),
  attemptId: z.string(),
  examId: z.string(),
  userId: z.string(),
  workspaceType: WorkspaceTypeSchema,
  status: SessionStatusSchema,
  editorPath: z.string(),
  /** Kept for the spec's `{ sessionId, port }` shape; always null because ports are not published. */
  port: z.null(),
  /** True when the session came from the warm pool (create answered without a cold start). */
  warm: z.boolean(),
  createdAt: z.string(),
  lastActivityAt: z.string(),
  /**
   * The workspace folder's disk as the orchestrator last measured it (live sessions listed to their candidate);
   * `full` once too little is left to save a file, where the candidate's writes fail with "No space left on device".
   */
  storage: z
    .object({ usedBytes: z.number(), availableBytes: z.number(), sizeBytes: z.number(), full: z.boolean() })
    .optional(),
});
export type Session = z.infer<typeof SessionSchema>;

export const SessionListSchema = z.object({ sessions: z.array(SessionSchema) });
export const SessionParamsSchema = z.object({ sessionId: z.string().min(1).max(64) });

/** One entry of infra/workspaces/catalogue.json: which image serves a workspace type and how. */
export const CatalogueEntrySchema = z.object({
  image: z.string().min(1),
  languages: z.array(CodingLanguageSchema),
  /** The editor's port inside the container (code-server: 8080). */
  port: z.number().int().min(1).max(65535),
  command: z.array(z.string()),
  /** Answers 200 without a login once the editor is up. */
  healthPath: z.string().default('/healthz'),
  /** code-server's password form; the orchestrator posts the per-session password here. */
  loginPath: z.string().default('/login'),
  sessionCookie: z.string().default('code-server-session'),
  description: z.string().default(''),
  /** The coding agents the image provides (workspace-agents.ts); a creator can offer only these. */
  agents: z.array(WorkspaceAgentSchema).default([]),
});
export type CatalogueEntry = z.infer<typeof CatalogueEntrySchema>;

export const CatalogueSchema = z.object({
  types: z.record(WorkspaceTypeSchema, CatalogueEntrySchema),
  /** Extra entries (the small test image) addressable by name in configuration and tests. */
  extra: z.record(z.string(), CatalogueEntrySchema).default({}),
});
export type Catalogue = z.infer<typeof CatalogueSchema>;

const MEDIA_TYPES: Record<string, string> = {
  py: 'text/x-python',
  js: 'text/javascript',
  mjs: 'text/javascript',
  ts: 'text/x-typescript',
  json: 'application/json',
  sql: 'application/sql',
  r: 'text/x-r',
  java: 'text/x-java',
  c: 'text/x-c',
  h: 'text/x-c',
  cpp: 'text/x-c++',
  cc: 'text/x-c++',
  hpp: 'text/x-c++',
  md: 'text/markdown',
  txt: 'text/plain',
  csv: 'text/csv',
  html: 'text/html',
  css: 'text/css',
  sh: 'text/x-shellscript',
  xml: 'application/xml',
  yaml: 'application/yaml',
  yml: 'application/yaml',
  ipynb: 'application/x-ipynb+json',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  png: 'image/png',
  jpg: 'image/jpeg',
  zip: 'application/zip',
};

/**
 * Binary files whose bytes are collected into the result (base64, within the per-file cap), because the grader opens
 * them: the excel workspace's workbook and images such as R's plots. Other binary files keep their size and type.
 */
export const KEPT_BINARY_TYPES: ReadonlySet<string> = new Set([MEDIA_TYPES.xlsx!, MEDIA_TYPES.png!, MEDIA_TYPES.jpg!]);

/** The `type` of a collected file: its media type by extension; 'symlink' for links (never followed). */
export function workspaceFileType(path: string, kind: 'file' | 'symlink', isBinary: boolean): string {
  if (kind === 'symlink') return 'symlink';
  const ext = path.includes('.') ? path.slice(path.lastIndexOf('.') + 1).toLowerCase() : '';
  return MEDIA_TYPES[ext] ?? (isBinary ? 'application/octet-stream' : 'text/plain');
}

/**
 * Binary heuristic for collection: a NUL byte, or bytes that are not valid UTF-8. A truncated file may
 * end inside a character, so its last incomplete sequence is not held against it.
 */
export function looksBinary(bytes: Uint8Array, opts: { truncated?: boolean } = {}): boolean {
  if (bytes.includes(0)) return true;
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: opts.truncated === true });
    return false;
  } catch {
    return true;
  }
}

/**
 * POST /api/session/{id}/launch: the address the exam page frames, on WORKSPACE_ORIGIN, carrying a one-time
 * launch token that the orchestrator exchanges for its own cookie there. Used once; ask again to reload.
 */
export const SessionLaunchSchema = z.object({ editorUrl: z.string(), expiresAt: z.string() });
export type SessionLaunch = z.infer<typeof SessionLaunchSchema>;
