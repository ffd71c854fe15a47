import type { PublicExam } from '@exam/domain/exam';
import { WORKSPACE_TYPE_LABELS } from '@exam/domain/exam';

export type WorkspacePanelProps = {
  exam: PublicExam;
  attempt: { attemptId: string; token: string } | null;
  preview: boolean;
  activeQuestionIndex: number;
};

type WorkspaceState = 'initializing' | 'creating' | 'connecting' | 'connected' | 'failed';

/**
 * The coding workspace frame (spec section 4 'Workspace session'). The editor iframe goes inside the
 * element marked data-workspace-frame: focus moving there is not a proctoring loss.
 */
export function WorkspacePanel({ exam }: WorkspacePanelProps) {
  const state: WorkspaceState = 'initializing';
  return (
    <div className="flex h-full flex-col bg-surface" data-testid="workspace-panel" data-state={state}>
      <div className="border-b border-line px-3 py-2 text-xs font-semibold uppercase tracking-wide text-muted">{WORKSPACE_TYPE_LABELS[exam.codingWorkspace.workspaceType]}</div>
      <div data-workspace-frame className="flex flex-1 items-center justify-center text-sm text-muted">
        Preparing your coding workspace…
      </div>
    </div>
  );
}
