import { isTestGraded } from '@exam/domain/coding';
import type { Question } from '@exam/domain/question';
import type { WorkspaceFile } from '@exam/domain/internal';
import type { ExamSnapshot } from './snapshot.ts';

/** Whether the question's answer may come from a file of the candidate's coding workspace. */
export function usesWorkspaceFile(snapshot: Pick<ExamSnapshot, 'codingWorkspace'>, q: Question): boolean {
  return snapshot.codingWorkspace.enabled && q.workspaceFile !== null && q.workspaceFile !== '';
}

/** The workspace's text file at the question's path (`./` prefixes ignored), if the workspace has it. */
export function workspaceFileText(q: Question, files: Readonly<Record<string, WorkspaceFile>>): string | undefined {
  if (!q.workspaceFile) return undefined;
  const want = q.workspaceFile.replace(/^(\.\/)+/, '');
  const file = files[want] ?? files[`./${want}`];
  return file && !file.isBinary ? file.content : undefined;
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
): string {
  const fromWorkspace = usesWorkspaceFile(snapshot, q) ? workspaceFileText(q, files) : undefined;
  return fromWorkspace ?? answer ?? '';
}

/** Whether a submission must collect the workspace to know what a test-graded question runs. */
export function needsWorkspaceForTests(snapshot: ExamSnapshot): boolean {
  return snapshot.questions.some((q) => isTestGraded(q) && usesWorkspaceFile(snapshot, q));
}

/** One outbox row per test-graded question of a submission: its index and the code to run. */
export function testGradingsOf(
  snapshot: ExamSnapshot,
  saved: ReadonlyMap<number, string>,
  files: Readonly<Record<string, WorkspaceFile>>,
): Array<{ questionIndex: number; code: string }> {
  return snapshot.questions.flatMap((q, questionIndex) =>
    isTestGraded(q) ? [{ questionIndex, code: codeToRun(snapshot, q, saved.get(questionIndex), files) }] : [],
  );
}
