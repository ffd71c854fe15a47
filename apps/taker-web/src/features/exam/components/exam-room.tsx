import type { ProctorEvent } from '@exam/domain/attempt';
import type { PublicExam } from '@exam/domain/public-exam';
import type { SectionState } from '@exam/domain/sections';
import { EndedByExaminerMessage } from '@exam/domain/candidate-messages';
import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import type { StoredAttempt, TakerDb } from '../../../lib/taker-db.ts';
import { useCountdown } from '../hooks/use-countdown.ts';
import { useExamOutbox } from '../hooks/use-exam-outbox.ts';
import { useExamSubmit } from '../hooks/use-exam-submit.ts';
import { useIsFullscreen } from '../hooks/use-is-fullscreen.ts';
import { useLiveAttempt } from '../hooks/use-live-attempt.ts';
import { useNarrowScreen } from '../hooks/use-narrow-screen.ts';
import { usePanels } from '../hooks/use-panels.ts';
import { usePasteGuard } from '../hooks/use-paste-guard.ts';
import { useQuestionFlags } from '../hooks/use-question-flags.ts';
import { useSections } from '../hooks/use-sections.ts';
import { totalQuestions } from '../lib/section-view.ts';
import { resolvePastes, type AnswerEdit } from '../lib/answer-edits.ts';
import { enabledPanels } from '../lib/room-layout.ts';
import { enterFullscreen, exitFullscreen, useProctoring } from '../hooks/use-proctoring.ts';
import { AnnouncementsBanner } from './announcements-banner.tsx';
import { ExamHeader } from './exam-header.tsx';
import { AttentionDialog, FullscreenPrompt, PasteNotice, PausedScreen } from './proctor-overlays.tsx';
import { PracticeBanner } from './practice-banner.tsx';
import { PracticeContext } from './practice-check.tsx';
import { questionAnchor } from './question-card.tsx';
import { QuestionsColumn } from './questions-column.tsx';
import { QuestionsPanel } from './questions-panel.tsx';
import { SubmitDialog } from './submit-dialog.tsx';

// The resizable columns (react-resizable-panels) are fetched only for an exam with a workspace or an assistant; an
// exam of questions alone shows them in one plain column (bench/README.md, "Page weight").
const ExamPanels = lazy(async () => ({ default: (await import('./exam-panels.tsx')).ExamPanels }));

/** What the workspace and assistant panels receive (their features render inside this page). */
export type ExamPanelProps = {
  exam: PublicExam;
  attempt: { attemptId: string; token: string } | null;
  preview: boolean;
  activeQuestionIndex: number;
  /** The candidate's current section has no assistant (sections.ts): the assistant panel says so and takes nothing. */
  assistantOff: boolean;
};

export type ExamRoomProps = {
  exam: PublicExam;
  attempt: StoredAttempt | null;
  db: TakerDb | null;
  initialAnswers: Map<number, string>;
  deadline: string | null;
  /** Where the attempt is among the exam's sections, as the server last said (null: none known). */
  section: SectionState | null;
  clockOffsetMs: number;
  preview: boolean;
  /** From the navigation state; falls back to what the attempt stored, then to the exam setting. */
  fullScreenRequested: boolean | undefined;
  renderWorkspace: (props: ExamPanelProps) => ReactNode;
  renderAssistant: (props: ExamPanelProps) => ReactNode;
};

/** A timed exam whose deadline did not come back from the server still ends timerMinutes after the start. */
function effectiveDeadline(exam: PublicExam, attempt: StoredAttempt | null, deadline: string | null): string | null {
  if (!attempt || !exam.timerEnabled) return null;
  if (deadline) return deadline;
  return new Date(Date.parse(attempt.startedAt) + exam.timerMinutes * 60_000).toISOString();
}

export function ExamRoom({
  exam: loadedExam,
  attempt,
  db,
  initialAnswers,
  deadline,
  section,
  clockOffsetMs,
  preview,
  fullScreenRequested,
  renderWorkspace,
  renderAssistant,
}: ExamRoomProps) {
  const [activeQuestionIndex, setActiveQuestionIndex] = useState(0);
  const isFullscreen = useIsFullscreen();
  const submitRef = useRef<() => void>(() => undefined);
  const sectionRefusedRef = useRef<() => void>(() => undefined);
  const { engine, status, answers, answered, setAnswer, files, commit } = useExamOutbox({
    db,
    attempt,
    initialAnswers,
    preview,
    submitRef,
    sectionRefusedRef,
  });
  const sections = useSections({
    exam: loadedExam,
    attempt,
    db,
    preview,
    initial: section,
    clockOffsetMs,
    flush: useCallback(async () => engine?.flush(), [engine]),
    onTimeUp: useCallback(() => submitRef.current(), []),
  });
  const { exam, locked } = sections;
  useEffect(() => {
    sectionRefusedRef.current = sections.refresh;
  }, [sections.refresh]);
  const flags = useQuestionFlags(preview ? null : db, attempt?.attemptId ?? null);
  const wantsFullscreen = !preview && (fullScreenRequested ?? attempt?.fullScreenRequested ?? exam.fullScreenEnabled);

  const engineRef = useRef(engine);
  useEffect(() => {
    engineRef.current = engine;
  }, [engine]);
  const logEvent = useCallback(
    (event: ProctorEvent) => {
      engineRef.current
        ?.logEvent({ ...event, questionIndex: event.questionIndex ?? activeQuestionIndex })
        .catch((error: unknown) => console.error('Could not record the event', error));
    },
    [activeQuestionIndex],
  );
  const proctoring = useProctoring({ enabled: !preview, fullScreenRequested: wantsFullscreen, onEvent: logEvent });
  // The question on screen, for insights' time per question; a navigation record, not a warning. Reported
  // once the sync engine is there, so the first question's view is kept rather than dropped.
  const logQuestionView = useCallback(
    (questionIndex: number) => logEvent({ type: 'question-view', questionIndex }),
    [logEvent],
  );
  const paste = usePasteGuard(!preview, logEvent);
  const { pasteSource } = paste;
  // A paste's text came from an assistant reply or from elsewhere in the exam: the paste guard knows which.
  // A locked section's answer cannot change (its card is read-only; this guards against any other way in).
  const answerQuestion = useCallback(
    (index: number, value: string, edit: AnswerEdit) => {
      if (locked.has(index)) return;
      setAnswer(index, value, resolvePastes(edit, pasteSource));
    },
    [setAnswer, pasteSource, locked],
  );
  const endedNotice = useRef<string | undefined>(undefined);
  const { submit, submitting } = useExamSubmit({
    exam,
    engineRef,
    answered,
    proctoring,
    attemptId: attempt?.attemptId,
    notice: endedNotice,
  });
  useEffect(() => {
    submitRef.current = () => void submit();
  }, [submit]);
  // The examiner's announcements, a changed deadline, and the end of the attempt (docs/product.md#the-live-proctor-view).
  const live = useLiveAttempt({
    attempt: preview ? null : attempt,
    deadline,
    onFinished: useCallback(
      (ended: boolean) => {
        if (ended) endedNotice.current = EndedByExaminerMessage;
        void submit();
      },
      [submit],
    ),
  });

  const remaining = useCountdown(
    preview ? null : effectiveDeadline(exam, attempt, live.deadline),
    clockOffsetMs,
    useCallback(() => submitRef.current(), []),
  );

  // Only what the exam enables gets a panel, a toggle and, on a narrow screen, a tab.
  const { codingWorkspace, aiSettings } = exam;
  const available = useMemo(() => enabledPanels({ codingWorkspace, aiSettings }), [codingWorkspace, aiSettings]);
  const panels = usePanels(available);
  // No toggles for a lone panel, nor under tabs (the tabs choose the panel there).
  const narrow = useNarrowScreen();
  const togglablePanels = narrow || available.length < 2 ? [] : available;
  const [confirmingSubmit, setConfirmingSubmit] = useState(false);
  const { visible: visiblePanels, toggle: togglePanel } = panels;
  const jumpToQuestion = useCallback(
    (index: number) => {
      if (!visiblePanels.questions) togglePanel('questions');
      setActiveQuestionIndex(index);
      // After the questions panel has rendered (it may just have been shown again).
      requestAnimationFrame(() => {
        const section = document.getElementById(questionAnchor(index));
        if (!section) return;
        if (typeof section.scrollIntoView === 'function') section.scrollIntoView({ block: 'start' });
        const field = section.querySelector<HTMLElement>('input, textarea, select, [contenteditable="true"]');
        (field ?? section).focus();
      });
    },
    [visiblePanels.questions, togglePanel],
  );

  // A move to the next section (the candidate's, or its time running out) takes them to its first question.
  const currentSection = sections.position?.current ?? null;
  const firstOfSection = currentSection === null ? undefined : sections.groups[currentSection]?.questions[0];
  const seenSection = useRef(currentSection);
  useEffect(() => {
    if (currentSection === seenSection.current) return;
    seenSection.current = currentSection;
    if (firstOfSection !== undefined) jumpToQuestion(firstOfSection);
  }, [currentSection, firstOfSection, jumpToQuestion]);

  const panelProps: ExamPanelProps = {
    exam,
    attempt: attempt ? { attemptId: attempt.attemptId, token: attempt.token } : null,
    preview,
    activeQuestionIndex,
    assistantOff: sections.assistantOff,
  };

  const questionsPanel = (
    <QuestionsPanel
      exam={exam}
      answers={answers}
      current={activeQuestionIndex}
      flagged={flags.flagged}
      onToggleFlag={flags.toggle}
      onAnswer={answerQuestion}
      files={files}
      onCommit={commit}
      onActive={setActiveQuestionIndex}
      onView={preview || !engine ? undefined : logQuestionView}
      attempt={panelProps.attempt}
      uploadMaxBytes={attempt?.uploadMaxBytes}
      sections={sections.position ? sections : null}
      clockOffsetMs={clockOffsetMs}
    />
  );

  return (
    <PracticeContext.Provider value={exam.practice && !preview}>
      <div className="flex h-full flex-col">
        <ExamHeader
          title={exam.title}
          preview={preview}
          warnings={proctoring.warnings}
          candidate={
            attempt ? { name: attempt.name, studentId: attempt.studentId, attemptId: attempt.attemptId } : null
          }
          answered={answered}
          total={totalQuestions(exam)}
          remaining={remaining}
          panels={panels.visible}
          availablePanels={togglablePanels}
          onTogglePanel={panels.toggle}
          onRestoreAll={panels.restoreAll}
          fullScreen={{
            enabled: exam.fullScreenEnabled,
            active: isFullscreen,
            onToggle: () => void (isFullscreen ? exitFullscreen() : enterFullscreen()),
          }}
          saveStatus={preview ? null : status}
          submitting={submitting}
          onSubmit={() => setConfirmingSubmit(true)}
        />
        <AnnouncementsBanner announcements={live.announcements} onDismiss={live.dismiss} />
        {exam.practice && <PracticeBanner />}
        {available.length > 1 ? (
          <Suspense fallback={<div className="min-h-0 flex-1" />}>
            <ExamPanels
              visible={panels.visible}
              questions={questionsPanel}
              workspace={available.includes('workspace') ? renderWorkspace(panelProps) : null}
              assistant={available.includes('assistant') ? renderAssistant(panelProps) : null}
            />
          </Suspense>
        ) : (
          <QuestionsColumn>{questionsPanel}</QuestionsColumn>
        )}
        {proctoring.paused ? (
          <PausedScreen warnings={proctoring.warnings} onResume={proctoring.resume} />
        ) : proctoring.fullscreenPrompt ? (
          <FullscreenPrompt
            reason={proctoring.fullscreenPrompt}
            refused={proctoring.fullscreenRefused}
            onReturn={proctoring.returnToFullscreen}
          />
        ) : (
          <AttentionDialog open={proctoring.attention} onResume={proctoring.resume} />
        )}
        <SubmitDialog
          open={confirmingSubmit}
          onOpenChange={setConfirmingSubmit}
          exam={exam}
          answers={answers}
          flagged={flags.flagged}
          submitting={submitting}
          onConfirm={() => void submit()}
          onJump={jumpToQuestion}
        />
        <PasteNotice visible={paste.noticeVisible} />
      </div>
    </PracticeContext.Provider>
  );
}
