import {
  fromCompact,
  reconcile,
  replay,
  replayWithSources,
  sharesOf,
  type AnswerOperation,
} from '@exam/domain/answer-operations';
import type { Question } from '@exam/domain/question';
import type { TimelineAnswer } from '@exam/domain/timeline';
import { computeTypingSignals } from '@exam/domain/typing-signals';
import { percentilesOf, type CohortFigures } from './cohort-percentiles.ts';
import type { OperationChunkRow } from './timeline.repository.ts';

/** The stored chunks as operations per question, in replay order (the chunks come sorted by question and start). */
export function operationsByQuestion(
  chunks: ReadonlyArray<OperationChunkRow>,
  startedAtMs: number,
): Map<number, AnswerOperation[]> {
  const byQuestion = new Map<number, AnswerOperation[]>();
  for (const chunk of chunks) {
    let ops = byQuestion.get(chunk.questionIndex);
    if (!ops) byQuestion.set(chunk.questionIndex, (ops = []));
    for (const op of chunk.ops) ops.push(fromCompact(op, startedAtMs));
  }
  return byQuestion;
}

/** What the candidate could read on the question's page and copy by hand: its wording, options and starter code. */
export function questionTexts(question: Question | undefined): string[] {
  if (!question) return [];
  return [question.title, question.content, ...question.options, question.starterCode ?? ''].filter(Boolean);
}

/**
 * One answer of the timeline: the recorded operations made to replay exactly to the stored answer (a `restored`
 * operation at `gapAt` closes any gap), the final answer's sources, and its typing figures against the cohort.
 */
export function buildAnswer(input: {
  questionIndex: number;
  final: string;
  recorded: ReadonlyArray<AnswerOperation>;
  gapAt: string;
  visible: ReadonlyArray<string>;
  cohort: CohortFigures | undefined;
}): TimelineAnswer {
  const { operations, reconciled } = reconcile(input.recorded, input.final, input.gapAt);
  const { runs } = replayWithSources(operations);
  const signals = computeTypingSignals(operations, input.visible);
  return {
    questionIndex: input.questionIndex,
    final: input.final,
    operations,
    sources: sharesOf(runs),
    runs,
    reconciled,
    signals: { ...signals, percentiles: percentilesOf(signals, input.cohort) },
  };
}

/**
 * The answer as it stood just before `before` (an ISO instant): the recorded operations made to end at the stored
 * answer as the timeline shows them (reconcile, with any gap closed at `gapAt`), replayed up to that instant.
 * Insights read the candidate's first decision before the assistant's advice from it (reliance figures).
 */
export function answerBefore(input: {
  final: string;
  recorded: ReadonlyArray<AnswerOperation>;
  gapAt: string;
  before: string;
}): string {
  const { operations } = reconcile(input.recorded, input.final, input.gapAt);
  const cut = Date.parse(input.before);
  const upTo = operations.findIndex((op) => Date.parse(op.at) >= cut);
  return replay(upTo < 0 ? operations : operations.slice(0, upTo));
}
