import type { PublicExam } from '@exam/domain/exam';

export type AssistantPanelProps = {
  exam: PublicExam;
  attempt: { attemptId: string; token: string } | null;
  preview: boolean;
  /** The question the candidate last focused or touched, for the assistant's context. */
  activeQuestionIndex: number;
};

/** Placeholder until the chat is connected: the exam page renders this inside its assistant panel. */
export function AssistantPanel({ exam }: AssistantPanelProps) {
  const ai = exam.aiSettings;
  if (!ai.enabled) {
    return <p className="p-4 text-sm text-muted">AI Assistant is not enabled for this exam</p>;
  }
  return (
    <div className="flex h-full flex-col gap-3 p-4 text-sm" data-testid="assistant-panel">
      {ai.startMessage && <p className="max-w-[85%] rounded-lg bg-canvas px-3 py-2 text-ink">{ai.startMessage}</p>}
      <p className="text-muted">The chat is being connected.</p>
    </div>
  );
}
