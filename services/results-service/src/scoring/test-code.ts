import {
  isTestGraded,
  MAX_RUN_REPOSITORY_BYTES,
  MAX_RUN_REPOSITORY_FILES,
  repositoryRoots,
  RepositoryPathSchema,
  RESERVED_REPOSITORY_PATHS,
  SOURCE_FILES,
  workspaceFileFor,
  type RepositoryFile,
  type RunLanguage,
} from '@exam/domain/coding';
import type { Question } from '@exam/domain/question';
import type { WorkspaceFile } from '@exam/domain/internal';
import type { ExamSnapshot } from './snapshot.ts';

/**
 * Where a question's repository sits in the workspace: as the snapshot kept it at start, or, for a snapshot without
 * the map, as the snapshot's own questions would place it (the same while no arrangement left some out).
 */
export function repositoryRootOf(
  snapshot: Pick<ExamSnapshot, 'questions' | 'repositoryRoots'>,
  questionId: string,
): string {
  return (snapshot.repositoryRoots ?? repositoryRoots(snapshot.questions))[questionId] ?? '';
}

/** Whether the question's answer may come from a file of the candidate's coding workspace. */
export function usesWorkspaceFile(snapshot: Pick<ExamSnapshot, 'codingWorkspace'>, q: Question): boolean {
  return snapshot.codingWorkspace.enabled && q.workspaceFile !== null && q.workspaceFile !== '';
}

/** The workspace's text file at the question's path (`./` prefixes ignored), if the workspace has it. */
export function workspaceFileText(q: Question, files: Readonly<Record<string, WorkspaceFile>>): string | undefined {
  return q.workspaceFile ? workspaceText(q.workspaceFile, files) : undefined;
}

/** The workspace's text file at `path` (`./` prefixes ignored), if the workspace has it. */
export function workspaceText(path: string, files: Readonly<Record<string, WorkspaceFile>>): string | undefined {
  const want = path.replace(/^(\.\/)+/, '');
  const file = files[want] ?? files[`./${want}`];
  return file && !file.isBinary ? file.content : undefined;
}

/**
 * The saved answers with each question answered in the workspace given its workspace file's content (the file the
 * candidate edited is the answer: docs/product.md#the-coding-workspace); a question whose file the workspace did not
 * return keeps its last saved answer.
 */
export function answersWithWorkspace(
  snapshot: Pick<ExamSnapshot, 'codingWorkspace' | 'questions'>,
  saved: ReadonlyMap<number, string>,
  files: Readonly<Record<string, WorkspaceFile>>,
  languages: ReadonlyMap<number, RunLanguage> = new Map(),
): Map<number, string> {
  const answers = new Map(saved);
  snapshot.questions.forEach((q, i) => {
    if (!usesWorkspaceFile(snapshot, q)) return;
    const path = workspaceFileFor(q, languages.get(i));
    const text = path ? workspaceText(path, files) : undefined;
    if (text !== undefined) answers.set(i, text);
  });
  return answers;
}

/**
 * The code a question's tests run (docs/product.md#coding-questions): the workspace file the question names
 * when the exam has a coding workspace and the file exists there, otherwise the inline editor's answer.
 */
export function codeToRun(
  snapshot: Pick<ExamSnapshot, 'codingWorkspace'>,
  q: Question,
  answer: string | null | undefined,
  files: Readonly<Record<string, WorkspaceFile>>,
  language?: RunLanguage,
): string {
  const path = usesWorkspaceFile(snapshot, q) ? workspaceFileFor(q, language) : null;
  const fromWorkspace = path ? workspaceText(path, files) : undefined;
  return fromWorkspace ?? answer ?? '';
}

/** Whether a submission must collect the workspace to know what a test-graded question runs. */
export function needsWorkspaceForTests(snapshot: ExamSnapshot): boolean {
  return (
    snapshot.codingWorkspace.enabled &&
    snapshot.questions.some((q) => isTestGraded(q) && (usesWorkspaceFile(snapshot, q) || q.repository))
  );
}

/**
 * One outbox row per test-graded question of a submission: its index, the code to run and, for an agentic task,
 * the candidate's repository (the hidden files are laid over it when the run starts).
 */
export function testGradingsOf(
  snapshot: ExamSnapshot,
  saved: ReadonlyMap<number, string>,
  files: Readonly<Record<string, WorkspaceFile>>,
  languages: ReadonlyMap<number, RunLanguage> = new Map(),
): Array<{ questionIndex: number; code: string; files: RepositoryFile[] | null }> {
  return snapshot.questions.flatMap((q, questionIndex) =>
    isTestGraded(q)
      ? [
          {
            questionIndex,
            code: codeToRun(snapshot, q, saved.get(questionIndex), files, languages.get(questionIndex)),
            files: candidateRepository(snapshot, questionIndex, files),
          },
        ]
      : [],
  );
}

const reserved = (path: string) => (RESERVED_REPOSITORY_PATHS as readonly string[]).includes(path.split('/')[0]!);
const MAX_FILE_CHARS = 200_000;

/**
 * An agentic task's files as the candidate left them (docs/product.md#agentic-tasks): the workspace's text files
 * under the question's root (repositoryRootOf: the root, or `q<N>/` when several questions have a repository), or
 * the starter files when the exam has no workspace. Binary, truncated and left-out entries, and paths a run cannot
 * take, stay out. Null for a question without a repository.
 */
export function candidateRepository(
  snapshot: Pick<ExamSnapshot, 'codingWorkspace' | 'questions' | 'repositoryRoots'>,
  questionIndex: number,
  files: Readonly<Record<string, WorkspaceFile>>,
): RepositoryFile[] | null {
  const q = snapshot.questions[questionIndex];
  if (!q?.repository) return null;
  if (!snapshot.codingWorkspace.enabled) return q.repository.files;
  const root = repositoryRootOf(snapshot, q.id);
  const kept = new Map<string, string>();
  for (const [key, file] of Object.entries(files)) {
    const path = key.replace(/^(\.\/)+/, '');
    if (!path.startsWith(root) || file.isBinary || file.truncated || file.omitted) continue;
    const inside = path.slice(root.length);
    if (!RepositoryPathSchema.safeParse(inside).success || reserved(inside) || file.content.length > MAX_FILE_CHARS)
      continue;
    kept.set(inside, file.content);
  }
  return [...kept].sort(([a], [b]) => (a < b ? -1 : 1)).map(([path, content]) => ({ path, content }));
}

/**
 * What a run of an agentic task gets: the candidate's files with, for grading only, the question's hidden files
 * over them (a hidden file wins over the candidate's file of the same path). The source file the runner runs
 * (SOURCE_FILES) becomes the run's code when the files have it, else `fallbackCode` (the workspace file or the
 * inline answer) runs; the rest is the run's repository, kept within the runner's caps (hidden files first).
 */
export function repositoryRun(
  q: Question,
  candidate: readonly RepositoryFile[],
  opts: { withHidden: boolean; fallbackCode: string },
): { code: string; files: RepositoryFile[] } {
  const hidden = opts.withHidden ? (q.repository?.hiddenFiles ?? []) : [];
  const hiddenPaths = new Set(hidden.map((f) => f.path));
  const source = q.language ? SOURCE_FILES[q.language] : undefined;
  const merged = [...hidden, ...candidate.filter((f) => !hiddenPaths.has(f.path))];
  const code = merged.find((f) => f.path === source)?.content ?? opts.fallbackCode;
  const files: RepositoryFile[] = [];
  let bytes = 0;
  for (const file of merged) {
    if (file.path === source) continue;
    const size = new TextEncoder().encode(file.content).length;
    if (files.length >= MAX_RUN_REPOSITORY_FILES || bytes + size > MAX_RUN_REPOSITORY_BYTES) continue;
    files.push(file);
    bytes += size;
  }
  return { code, files };
}
