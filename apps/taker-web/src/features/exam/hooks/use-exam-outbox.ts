import { toast } from '@exam/ui/toaster';
import { useEffect, useMemo, useRef, type RefObject } from 'react';
import type { StoredAttempt, TakerDb } from '../../../lib/taker-db.ts';
import { useAnswerFiles } from './use-answer-files.ts';
import { useExamAnswers } from './use-exam-answers.ts';
import { useSyncEngine } from './use-sync-engine.ts';
import { i18n } from '../../../i18n/index.ts';
import { translateServerMessage } from '../../../i18n/server-messages.ts';

/**
 * The answers on screen and the sync engine that keeps and sends them. The engine's callbacks reach the
 * page through refs, so the engine is created once per attempt: a closed attempt is submitted, and a
 * settled upload shows the answer the server recorded (or the reason it refused the file).
 */
export function useExamOutbox(options: {
  db: TakerDb | null;
  attempt: StoredAttempt | null;
  initialAnswers: Map<number, string>;
  preview: boolean;
  submitRef: RefObject<() => void>;
  /** An answer the server refused for its section: the page reads where the attempt is again. */
  sectionRefusedRef?: RefObject<() => void>;
}) {
  const { submitRef, sectionRefusedRef } = options;
  const showAnswerRef = useRef<(index: number, value: string) => void>(() => undefined);
  const fileSettledRef = useRef<(index: number, answer: string, error?: string) => void>(() => undefined);
  const engineCallbacks = useMemo(
    () => ({
      onClosed: (message: string) => {
        toast.error(translateServerMessage(message));
        submitRef.current();
      },
      onUploadSettled: (index: number, answer: string, error?: string) => {
        showAnswerRef.current(index, answer);
        fileSettledRef.current(index, answer, error);
        if (error)
          toast.error(i18n.t('exam:sync.questionError', { number: index + 1, message: translateServerMessage(error) }));
      },
      // What the candidate typed stays on the screen (and on this device); only the server would not take it.
      onSectionRefused: (index: number, message: string) => {
        toast.error(
          i18n.t('exam:sync.questionError', { number: index + 1, message: translateServerMessage(message) }),
          { id: 'section-refused' },
        );
        sectionRefusedRef?.current();
      },
    }),
    [submitRef, sectionRefusedRef],
  );
  const { engine, status } = useSyncEngine(options.db, options.preview ? null : options.attempt, engineCallbacks);
  const answers = useExamAnswers(options.initialAnswers, engine, options.preview);
  const { showAnswer } = answers;
  const { files, settled } = useAnswerFiles({
    db: options.db,
    attemptId: options.preview ? null : (options.attempt?.attemptId ?? null),
    preview: options.preview,
    chooseFile: answers.chooseFile,
    removeFile: answers.removeFile,
  });
  useEffect(() => {
    showAnswerRef.current = showAnswer;
    fileSettledRef.current = settled;
  }, [showAnswer, settled]);
  return { engine, status, ...answers, files };
}
