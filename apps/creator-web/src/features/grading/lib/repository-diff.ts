import type { RepositoryFile } from '@exam/domain/coding';
import type { WorkspaceFile } from '@exam/domain/internal';

export type RepositoryChange = {
  path: string;
  state: 'changed' | 'added' | 'deleted' | 'unchanged';
  starter: string;
  collected: string;
  /** The collected file is binary or was cut: its text cannot be compared. */
  unreadable: boolean;
};

/**
 * Where a question's starter repository sits in the workspace: at its root when the exam has one agentic task,
 * under `q<N>/` (N the exam's question number) when several (the workspace-orchestrator seeds them so).
 */
export const repositoryRoot = (examQuestionNumber: number, agenticTasks: number) =>
  agenticTasks > 1 ? `q${examQuestionNumber}/` : '';

const withoutDotSlash = (path: string) => path.replace(/^\.\//, '');

/** The starter repository against the collected workspace files under `root`, path by path, in path order. */
export function repositoryChanges(
  starter: ReadonlyArray<RepositoryFile>,
  collected: Readonly<Record<string, WorkspaceFile>>,
  root: string,
): RepositoryChange[] {
  const mine = new Map<string, WorkspaceFile>();
  for (const [name, file] of Object.entries(collected)) {
    const path = withoutDotSlash(name);
    if (file.omitted || !path.startsWith(root)) continue;
    mine.set(path.slice(root.length), file);
  }
  const changes: RepositoryChange[] = starter.map((file) => {
    const found = mine.get(file.path);
    mine.delete(file.path);
    if (!found) return { path: file.path, state: 'deleted', starter: file.content, collected: '', unreadable: false };
    const unreadable = found.isBinary || found.truncated;
    return {
      path: file.path,
      state: !unreadable && found.content === file.content ? 'unchanged' : 'changed',
      starter: file.content,
      collected: found.content,
      unreadable,
    };
  });
  for (const [path, file] of mine)
    changes.push({
      path,
      state: 'added',
      starter: '',
      collected: file.content,
      unreadable: file.isBinary || file.truncated,
    });
  return changes.sort((a, b) => a.path.localeCompare(b.path));
}
