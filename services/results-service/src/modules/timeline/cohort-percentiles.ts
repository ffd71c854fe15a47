import type { TypingSignals } from '@exam/domain/timeline';
import { percentileRank } from '@exam/domain/typing-signals';
import type { CohortRow } from './timeline.repository.ts';

/** The exam cohort's figures for one question: each figure of every other result that has one. */
export type CohortFigures = {
  charsPerMinute: number[];
  medianPauseMs: number[];
  revisionRatio: number[];
  longestBurst: number[];
};

type Figures = Pick<TypingSignals, 'charsPerMinute' | 'revisionRatio' | 'longestBurst'> & {
  pauses: Pick<TypingSignals['pauses'], 'medianMs'>;
};

/**
 * The cohort's figures per question, keyed by the question's id: with shuffled or drawn questions the same
 * question sits at a different index in each candidate's attempt, and the id is what stays.
 */
export function cohortByQuestion(rows: ReadonlyArray<CohortRow>): Map<string, CohortFigures> {
  const byQuestion = new Map<string, CohortFigures>();
  for (const row of rows) {
    for (const answer of row.answers) {
      const id = row.questionIds[answer.questionIndex];
      if (id === undefined) continue;
      let figures = byQuestion.get(id);
      if (!figures) {
        figures = { charsPerMinute: [], medianPauseMs: [], revisionRatio: [], longestBurst: [] };
        byQuestion.set(id, figures);
      }
      addFigures(figures, answer.signals);
    }
  }
  return byQuestion;
}

function addFigures(figures: CohortFigures, signals: Figures) {
  const push = (list: number[], value: number | null | undefined) => {
    if (typeof value === 'number' && Number.isFinite(value)) list.push(value);
  };
  push(figures.charsPerMinute, signals.charsPerMinute);
  push(figures.medianPauseMs, signals.pauses?.medianMs);
  push(figures.revisionRatio, signals.revisionRatio);
  // An answer nobody typed in has no burst to compare: a cohort of empty answers would put every typist at 100.
  if (signals.longestBurst > 0) push(figures.longestBurst, signals.longestBurst);
}

/** Each figure's percentile rank in the cohort (mid-rank, percentileRank), null without a cohort or a figure. */
export function percentilesOf(signals: Figures, cohort: CohortFigures | undefined): TypingSignals['percentiles'] {
  return {
    charsPerMinute: percentileRank(cohort?.charsPerMinute ?? [], signals.charsPerMinute),
    medianPauseMs: percentileRank(cohort?.medianPauseMs ?? [], signals.pauses.medianMs),
    revisionRatio: percentileRank(cohort?.revisionRatio ?? [], signals.revisionRatio),
    longestBurst: percentileRank(cohort?.longestBurst ?? [], signals.longestBurst > 0 ? signals.longestBurst : null),
  };
}
