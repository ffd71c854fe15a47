import { DEFAULT_UPLOAD_MAX_BYTES } from '@exam/domain/candidate-messages';
import type { PublicExam } from '@exam/domain/public-exam';
import { Button } from '@exam/ui/button';
import { RichText } from '@exam/ui/rich-text';
import { ChevronLeft, ChevronRight } from 'lucide-react';
import { useCallback, useEffect, useRef, useState, type MouseEvent, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnswerFiles } from '../hooks/use-answer-files.ts';
import type { AnswerEdit } from '../lib/answer-edits.ts';
import { QUESTION_SHORTCUTS, useQuestionShortcuts } from '../hooks/use-question-shortcuts.ts';
import { useTouchOnly } from '../../../lib/use-touch-only.ts';
import { useQuestionViews } from '../hooks/use-question-views.ts';
import { QuestionCard, questionAnchor } from './question-card.tsx';
import type { SectionsControl } from '../hooks/use-sections.ts';
import { totalQuestions } from '../lib/section-view.ts';
import { PlantedErrorsNote } from '../../../lib/planted-errors-note.tsx';
import { passageRuns } from '../lib/passage-groups.ts';
import { PassageGroup } from './passage-group.tsx';
import { QuestionNav } from './question-nav.tsx';
import { SectionBar } from './section-bar.tsx';

type QuestionsPanelProps = {
  exam: PublicExam;
  answers: Map<number, string>;
  /** The question the candidate is on: the one shown when the exam shows one at a time. */
  current: number;
  flagged: ReadonlySet<number>;
  onToggleFlag: (index: number) => void;
  onAnswer: (index: number, answer: string, edit: AnswerEdit) => void;
  files: AnswerFiles;
  onCommit: () => void;
  onActive: (index: number) => void;
  attempt: { attemptId: string; token: string } | null;
  /** The largest answer file the server takes (from the attempt's last sync). */
  uploadMaxBytes?: number | undefined;
  /** Told the question on screen whenever it changes (insights' time per question); none in a preview. */
  onView?: ((index: number) => void) | undefined;
  /** The exam's sections and the candidate's place among them; null for an undivided exam. */
  sections?: SectionsControl | null | undefined;
  /** Server clock minus this device's clock, for the section's timer. */
  clockOffsetMs?: number | undefined;
};

const EDITABLE = 'input, textarea, select, [contenteditable="true"], .cm-editor';

/** Text selection and the context menu are disabled here (docs/product.md#proctoring-and-integrity), except inside inputs and editors. */
function blockContextMenu(event: MouseEvent) {
  if (event.target instanceof Element && event.target.closest(EDITABLE)) return;
  event.preventDefault();
}

function focusQuestion(index: number): boolean {
  const section = document.getElementById(questionAnchor(index));
  if (!section) return false;
  if (typeof section.scrollIntoView === 'function') section.scrollIntoView({ block: 'start' });
  section.focus({ preventScroll: true });
  return true;
}

/**
 * The questions column: the navigation, then every question in one list or, when the exam shows one at a
 * time, the current one with Previous and Next. Moving to a question focuses it (its title is read out);
 * Alt+Page Down / Alt+Page Up do the same from anywhere on the page. What was typed is already in the
 * outbox (every change is kept as it happens); leaving a question also sends it.
 */
export function QuestionsPanel({
  exam,
  answers,
  current,
  flagged,
  onToggleFlag,
  uploadMaxBytes,
  onView,
  sections = null,
  clockOffsetMs = 0,
  ...handlers
}: QuestionsPanelProps) {
  const { t } = useTranslation('questions');
  const { onActive, onCommit } = handlers;
  const oneAtATime = exam.questionDisplay === 'one';
  const count = exam.questions.length;
  const shown = Math.min(Math.max(current, 0), Math.max(count - 1, 0));
  const pendingFocus = useRef<number | null>(null);
  const navBar = useRef<HTMLDivElement>(null);
  const list = useRef<HTMLDivElement>(null);
  const [navHeight, setNavHeight] = useState(0);
  useQuestionViews({ onView, oneAtATime, shown, count, containerRef: list });

  // The navigation stays at the top while the list scrolls; a question scrolled to (or focused) lands below it.
  useEffect(() => {
    const bar = navBar.current;
    if (!bar) return;
    const measure = () => setNavHeight(bar.offsetHeight);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(bar);
    return () => observer.disconnect();
  }, []);

  // A question switched to in one-at-a-time mode is focused once it is on the page.
  useEffect(() => {
    if (pendingFocus.current !== null && focusQuestion(pendingFocus.current)) pendingFocus.current = null;
  });

  const goTo = useCallback(
    (index: number) => {
      if (index < 0 || index >= count) return;
      if (index !== shown) onCommit();
      if (!oneAtATime || index === shown) {
        focusQuestion(index);
        onActive(index);
        return;
      }
      pendingFocus.current = index;
      onActive(index);
    },
    [count, shown, oneAtATime, onActive, onCommit],
  );

  const touchOnly = useTouchOnly();
  useQuestionShortcuts(
    useCallback((shortcut) => goTo(shortcut === 'next' ? shown + 1 : shown - 1), [goTo, shown]),
    count > 1,
  );

  const passages = new Map(exam.passages.map((p) => [p.id, p]));

  const card = (index: number) => {
    const question = exam.questions[index];
    if (!question) return null;
    return (
      <QuestionCard
        index={index}
        question={question}
        answer={answers.get(index) ?? ''}
        flagged={flagged.has(index)}
        onToggleFlag={onToggleFlag}
        locked={sections?.locked.get(index)}
        uploadMaxBytes={uploadMaxBytes ?? DEFAULT_UPLOAD_MAX_BYTES}
        inWorkspace={exam.codingWorkspace.enabled}
        {...handlers}
      />
    );
  };

  /** The questions' passage beside them (the first question's: a run shares one), or the questions alone. */
  const withPassage = (indexes: number[], content: ReactNode) => {
    const passageId = exam.questions[indexes[0]!]?.passageId;
    const passage = passageId ? passages.get(passageId) : undefined;
    if (!passage) return content;
    return (
      <PassageGroup passage={passage} questions={indexes}>
        {content}
      </PassageGroup>
    );
  };

  return (
    <div
      ref={list}
      className="h-full select-none overflow-y-auto bg-canvas [&_.cm-editor]:select-text [&_input]:select-text [&_textarea]:select-text"
      style={{ scrollPaddingTop: navHeight + 8, ['--questions-nav-height' as string]: `${navHeight}px` }}
      onContextMenu={blockContextMenu}
      data-testid="questions-panel"
    >
      <div ref={navBar} className="sticky top-0 z-10 border-b border-line bg-canvas px-4 py-3">
        {sections && <SectionBar control={sections} clockOffsetMs={clockOffsetMs} />}
        <QuestionNav
          count={count}
          answers={answers}
          flagged={flagged}
          current={shown}
          onJump={goTo}
          groups={sections?.groups}
          total={totalQuestions(exam)}
        />
      </div>
      <div className="p-4">
        {(exam.header || exam.description) && (
          <div className="mb-4 text-sm text-muted">
            {exam.header && <p className="font-medium text-ink">{exam.header}</p>}
            {exam.description && <RichText className="mt-1">{exam.description}</RichText>}
          </div>
        )}
        {exam.aiSettings.plantedErrors && <PlantedErrorsNote className="mb-4" />}
        {oneAtATime ? (
          <>
            <p className="mb-2 text-xs font-medium text-muted" data-testid="question-position">
              {t('nav.position', { number: shown + 1, total: count })}
            </p>
            {withPassage([shown], card(shown))}
            <div role="group" aria-label={t('nav.steps')} className="mt-4 flex items-center justify-between gap-2">
              <Button
                variant="secondary"
                onClick={() => goTo(shown - 1)}
                disabled={shown === 0}
                aria-keyshortcuts={QUESTION_SHORTCUTS.previous}
                title={t('nav.shortcutPrevious')}
              >
                <ChevronLeft aria-hidden className="h-4 w-4" />
                {t('nav.previous')}
              </Button>
              <Button
                variant="secondary"
                onClick={() => goTo(shown + 1)}
                disabled={shown >= count - 1}
                aria-keyshortcuts={QUESTION_SHORTCUTS.next}
                title={t('nav.shortcutNext')}
              >
                {t('nav.next')}
                <ChevronRight aria-hidden className="h-4 w-4" />
              </Button>
            </div>
          </>
        ) : (
          <ol className="flex flex-col gap-4">
            {passageRuns(exam.questions, new Set(passages.keys())).map(({ passageId, indexes }) =>
              passageId === null ? (
                <li key={exam.questions[indexes[0]!]!.id}>{card(indexes[0]!)}</li>
              ) : (
                // One passage beside the questions that share it: a list item holding their own list.
                <li key={`${passageId}:${exam.questions[indexes[0]!]!.id}`}>
                  {withPassage(
                    indexes,
                    <ol className="flex flex-col gap-4">
                      {indexes.map((index) => (
                        <li key={exam.questions[index]!.id}>{card(index)}</li>
                      ))}
                    </ol>,
                  )}
                </li>
              ),
            )}
          </ol>
        )}
        {count > 1 && !touchOnly && (
          <p className="mt-3 text-xs text-muted" data-testid="question-shortcut-hint">
            {t('nav.shortcutHint')}
          </p>
        )}
      </div>
    </div>
  );
}
