import { useCallback, useEffect, useRef, useState } from 'react';
import type { AnswerEdit } from '../lib/answer-edits.ts';
import type { SyncEngine } from '../lib/sync.ts';
import { fileAnswer } from '../lib/uploads.ts';
import { i18n } from '../../../i18n/index.ts';

/**
 * The answers on screen. Each change goes to the outbox (IndexedDB first, then the server); in a
 * preview (no engine) nothing is stored anywhere: a creator trying the exam leaves no attempt behind.
 */
export function useExamAnswers(initial: Map<number, string>, engine: SyncEngine | null, preview: boolean) {
  const [answers, setAnswers] = useState(() => new Map(initial));
  const engineRef = useRef(engine);
  useEffect(() => {
    engineRef.current = engine;
  }, [engine]);

  /** Shows a value without sending it anywhere (the outcome of an upload, a preview's file). */
  const showAnswer = useCallback(
    (index: number, value: string) =>
      setAnswers((current) => {
        const next = new Map(current);
        next.set(index, value);
        return next;
      }),
    [],
  );

  /** The candidate changed an answer; `edit` says how, so the outbox records it as edit operations. */
  const setAnswer = useCallback(
    (index: number, value: string, edit?: AnswerEdit) => {
      showAnswer(index, value);
      engineRef.current
        ?.saveAnswer(index, value, edit)
        .catch((error: unknown) => console.error('Could not keep the answer on this device', error));
    },
    [showAnswer],
  );

  /**
   * Keeps the chosen file on this device and shows it as the answer at once; the engine uploads it now or
   * when the network returns. Rejects (keeping nothing) when the file is over the limit.
   */
  const chooseFile = useCallback(
    async (index: number, file: File) => {
      if (preview) return showAnswer(index, fileAnswer(file.name));
      const current = engineRef.current;
      if (!current) throw new Error(i18n.t('exam:sync.stillLoading'));
      showAnswer(index, await current.saveFile(index, file));
    },
    [preview, showAnswer],
  );

  /** Clears a file answer: the question is unanswered again, here and (through the outbox) on the server. */
  const removeFile = useCallback(
    async (index: number) => {
      if (preview) return showAnswer(index, '');
      const current = engineRef.current;
      if (!current) throw new Error('The exam is still loading. Please try again.');
      await current.removeFile(index);
      showAnswer(index, '');
    },
    [preview, showAnswer],
  );

  const commit = useCallback(() => void engineRef.current?.flush(), []);
  const answered = [...answers.values()].filter((value) => value.trim() !== '').length;

  return { answers, answered, setAnswer, showAnswer, chooseFile, removeFile, commit };
}
