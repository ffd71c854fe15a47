import type { Timeline } from '@exam/domain/timeline';
import type { AgentCall } from '@exam/domain/workspace-agents';

/** One snapshot of a workspace file: the text before and after it, and the agent call that made it, if any. */
export type FileChangeView = {
  path: string;
  /** Index into the file's changes (the timeline's `change`). */
  index: number;
  at: string;
  before: string;
  after: string;
  deleted: boolean;
  agentCallId: string | null;
};

/** The id of the agent's section on the result page, for the agentic task's link to it. */
export const AGENT_ACTIVITY_ID = 'agent-activity';

/** The id of a change's row on the page, for the links from the calls that made it. */
export const changeAnchor = (path: string, index: number) => `file-change-${encodeURIComponent(path)}-${index}`;
export const callAnchor = (callId: string) => `agent-call-${encodeURIComponent(callId)}`;

/** Every workspace file change with the snapshot before it (the empty text before the first). */
export function fileChanges(files: Timeline['workspaceFiles']): FileChangeView[] {
  return files.flatMap((file) =>
    file.changes.map((change, index) => ({
      path: file.path,
      index,
      at: change.at,
      before: index === 0 ? '' : (file.changes[index - 1]!.content ?? ''),
      after: change.deleted ? '' : change.content,
      deleted: change.deleted,
      agentCallId: change.agentCallId ?? null,
    })),
  );
}

/** The changes each call made, by call id. */
export function changesByCall(changes: ReadonlyArray<FileChangeView>): Map<string, FileChangeView[]> {
  const byCall = new Map<string, FileChangeView[]>();
  for (const change of changes) {
    if (!change.agentCallId) continue;
    byCall.set(change.agentCallId, [...(byCall.get(change.agentCallId) ?? []), change]);
  }
  return byCall;
}

/** The calls' numbers as the grader reads them (1, 2, …), in the order the timeline gives them. */
export const callNumbers = (calls: ReadonlyArray<Pick<AgentCall, 'id'>>) =>
  new Map(calls.map((call, i) => [call.id, i + 1]));
