import {
  fromCompact,
  reconcile,
  replayWithSources,
  sharesOf,
  type AnswerOperation,
  type CompactOperation,
} from '@exam/domain/answer-operations';
import { assistantInsertedChars } from '@exam/domain/collaboration-figures';
import { summarizeProcess } from '@exam/domain/process-summary';
import type { ProcessRecord } from '@exam/domain/timeline';
import { computeTypingSignals } from '@exam/domain/typing-signals';
import type { ExamSnapshot } from './snapshot.ts';

/** One stored chunk of a question's edit operations (answer_operations), as a submission reads it. */
export type OperationChunk = { questionIndex: number; start: number; ops: CompactOperation[] };

/**
 * What is known of how the answers came to be: the stored operations, the refused outside pastes, and from the
 * attempt's transcript (llm-gateway) the messages the candidate sent and the assistant's replies.
 */
export type ProcessTrail = {
  chunks: ReadonlyArray<OperationChunk>;
  outsidePastesBlocked: number;
  assistantMessages: number;
  assistantReplies: ReadonlyArray<string>;
};

/** Each question's operations in order (chunks by `start`; a gap between two is left for `reconcile`). */
function operationsByQuestion(chunks: ReadonlyArray<OperationChunk>, startedAtMs: number) {
  const sorted = [...chunks].sort((a, b) => a.questionIndex - b.questionIndex || a.start - b.start);
  const byQuestion = new Map<number, AnswerOperation[]>();
  for (const chunk of sorted) {
    const list = byQuestion.get(chunk.questionIndex) ?? [];
    for (const op of chunk.ops) list.push(fromCompact(op, startedAtMs));
    byQuestion.set(chunk.questionIndex, list);
  }
  return byQuestion;
}

/** What the candidate could read on the question's page and copy by hand (as the timeline counts it). */
function questionTexts(question: ExamSnapshot['questions'][number]): string[] {
  return [question.title, question.content, ...question.options, question.starterCode ?? ''].filter(Boolean);
}

/**
 * results.process for a submission: each answer (every question with a saved answer or stored operations) replayed
 * from its operations and reconciled with the stored answer — a `restored` operation closes any gap, so the replay
 * always gives the answer exactly — with the characters of the final text by source and its typing signals (what
 * the candidate could see: the question's text and the assistant's replies), and the candidate's summary.
 */
export function processRecord(input: {
  attemptId: string;
  startedAt: Date;
  submittedAt: Date;
  snapshot: ExamSnapshot;
  saved: ReadonlyMap<number, string>;
  trail: ProcessTrail;
}): ProcessRecord {
  const byQuestion = operationsByQuestion(input.trail.chunks, input.startedAt.getTime());
  const submittedAt = input.submittedAt.toISOString();
  const indices = [...new Set([...input.saved.keys(), ...byQuestion.keys()])]
    .filter((index) => index >= 0 && index < input.snapshot.questions.length)
    .sort((a, b) => a - b);
  const answers = indices.map((questionIndex) => {
    const { operations, reconciled } = reconcile(
      byQuestion.get(questionIndex) ?? [],
      input.saved.get(questionIndex) ?? '',
      submittedAt,
    );
    const visible = [...questionTexts(input.snapshot.questions[questionIndex]!), ...input.trail.assistantReplies];
    return {
      questionIndex,
      sources: sharesOf(replayWithSources(operations).runs),
      signals: computeTypingSignals(operations, visible),
      reconciled,
      assistantInserted: assistantInsertedChars(operations),
    };
  });
  return {
    summary: summarizeProcess({
      attemptId: input.attemptId,
      submittedAt,
      answers: answers.map((answer) => answer.sources),
      assistantMessages: input.trail.assistantMessages,
      outsidePastesBlocked: input.trail.outsidePastesBlocked,
    }),
    answers,
  };
}
