import type { TimelineEvent } from '@exam/domain/timeline';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { useExamNumber } from '../question-numbering.tsx';

/** Kinds whose own wording names the question; the others say which question they happened on, if any. */
const NAMES_QUESTION = new Set<TimelineEvent['kind']>(['answer-edit', 'question-view']);

/** One event in plain words: "Pasted inside the exam (question 2)", "Ran the tests: 3 of 4 passed". */
export function useDescribeEvent(): (event: TimelineEvent) => string {
  const { t } = useTranslation('process');
  const numberOf = useExamNumber();
  return useCallback(
    (event: TimelineEvent) => {
      const n = numberOf(event.questionIndex ?? 0);
      let text: string =
        event.kind === 'test-run'
          ? event.passed !== undefined && event.total !== undefined
            ? t('event.test-run', { passed: event.passed, total: event.total })
            : t('event.test-run-plain')
          : event.kind === 'workspace-change'
            ? t('event.workspace-change', { path: event.path ?? '' })
            : t(`event.${event.kind}`, { n });
      if (event.questionIndex !== undefined && !NAMES_QUESTION.has(event.kind)) {
        text = t('event.onQuestion', { event: text, n });
      }
      // A test run with its outcome says it in its own words; without one, the detail says why. A follow-up
      // answer's detail is a code ('answered' or 'timed-out', timeline.ts), said here in words.
      const outcome = event.kind === 'test-run' && event.passed !== undefined;
      if (event.kind === 'follow-up-answered') {
        if (event.detail === 'timed-out') text = t('event.withDetail', { event: text, detail: t('event.timedOut') });
      } else if (event.detail && !outcome) text = t('event.withDetail', { event: text, detail: event.detail });
      return text;
    },
    [t, numberOf],
  );
}
