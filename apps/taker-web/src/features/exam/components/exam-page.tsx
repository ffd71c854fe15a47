import type { ReactNode } from 'react';
import { useExamSession } from '../hooks/use-exam-session.ts';
import { ExamFallback, ExamLoading, PreviewRefused } from './exam-fallback.tsx';
import { ExamRoom, type ExamPanelProps } from './exam-room.tsx';
import { useTranslation } from 'react-i18next';

type ExamPageProps = {
  examId: string;
  preview: boolean;
  fullScreenRequested: boolean | undefined;
  renderWorkspace: (props: ExamPanelProps) => ReactNode;
  renderAssistant: (props: ExamPanelProps) => ReactNode;
};

/** /exam/{examId}: the fallback screens, then the exam itself. */
export function ExamPage({ examId, preview, fullScreenRequested, renderWorkspace, renderAssistant }: ExamPageProps) {
  const { t } = useTranslation('exam');
  const session = useExamSession(examId, preview);
  if (session.status === 'loading') return <ExamLoading />;
  if (session.status === 'unavailable') return <ExamFallback message={t('fallback.notFound')} />;
  if (session.status === 'refused') return <PreviewRefused message={session.message} />;
  if (session.exam.questions.length === 0) return <ExamFallback message={t('fallback.noQuestions')} />;
  return (
    <ExamRoom
      exam={session.exam}
      attempt={session.attempt}
      db={session.db}
      initialAnswers={session.answers}
      deadline={session.deadline}
      section={session.section}
      clockOffsetMs={session.clockOffsetMs}
      preview={preview}
      fullScreenRequested={fullScreenRequested}
      renderWorkspace={renderWorkspace}
      renderAssistant={renderAssistant}
    />
  );
}
