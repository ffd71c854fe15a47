import { z } from 'zod';
import { DEFAULT_WORKSPACE_AI, WorkspaceAiSchema, type WorkspaceAi } from './workspace-ai.ts';

/**
 * The exam settings a candidate's page reads too (public-exam.ts, workspace.ts): kept apart from exam.ts, whose
 * creator-side schemas (the create and update bodies, the caller's role and capabilities, the retention period)
 * the candidate's bundle does not need. exam.ts re-exports everything here.
 */

/** An exam's workspace AI, with the default for exams stored before the setting existed. */
export const workspaceAiOf = (exam: { codingWorkspace: { ai?: WorkspaceAi | undefined } }): WorkspaceAi =>
  exam.codingWorkspace.ai ?? DEFAULT_WORKSPACE_AI;

/**
 * How the candidate's page shows the questions: all in one scrolling list, or one at a time with Previous and
 * Next (docs/product.md#sitting-an-exam). Exams stored before the option existed read as 'all'.
 */
export const QUESTION_DISPLAYS = ['all', 'one'] as const;
export const QuestionDisplaySchema = z.enum(QUESTION_DISPLAYS);
export type QuestionDisplay = z.infer<typeof QuestionDisplaySchema>;

export const WORKSPACE_TYPES = ['vscode', 'r-studio', 'oracle-sql', 'excel'] as const;
export const WorkspaceTypeSchema = z.enum(WORKSPACE_TYPES);
export type WorkspaceType = z.infer<typeof WorkspaceTypeSchema>;
export const WORKSPACE_TYPE_LABELS: Record<WorkspaceType, string> = {
  vscode: 'VS Code',
  'r-studio': 'R Studio',
  'oracle-sql': 'Oracle SQL Developer',
  excel: 'MS Excel',
};

/** The largest cohort an exam may ask the orchestrator to pre-start workspaces for. */
export const MAX_EXPECTED_CANDIDATES = 2000;

export const CodingWorkspaceSchema = z.object({
  enabled: z.boolean().default(false),
  saveFilesInResults: z.boolean().default(true),
  workspaceType: WorkspaceTypeSchema.default('vscode'),
  /** Lets the container reach the package registries of the exam's languages. Off by default. */
  allowPackageRegistries: z.boolean().default(false),
  /**
   * How many candidates the creator expects in the availability window: workspace-orchestrator starts that many
   * editors before the window opens (the roster's size counts when it is larger). Null or absent: only the
   * roster counts.
   */
  expectedCandidates: z
    .number()
    .int('Enter a whole number of candidates')
    .min(0, 'Enter 0 or more candidates')
    .max(MAX_EXPECTED_CANDIDATES, `At most ${MAX_EXPECTED_CANDIDATES} candidates`)
    .nullable()
    .optional(),
  /**
   * "AI in the workspace" (workspace-agents.ts): none, the chat assistant only, or a coding agent. Absent (exams
   * stored before it): DEFAULT_WORKSPACE_AI, the chat assistant only; read it with workspaceAiOf.
   */
  ai: WorkspaceAiSchema.optional(),
});
export type CodingWorkspace = z.infer<typeof CodingWorkspaceSchema>;
