import type { PublicQuestion } from '@exam/domain/question';
import type { AnswerEdit } from '../lib/answer-edits.ts';

/** What every input of the further question types (question-kinds.tsx) is given by the question card. */
export type KindAnswerProps = {
  index: number;
  question: PublicQuestion;
  answer: string;
  onAnswer: (index: number, answer: string, edit: AnswerEdit) => void;
  onCommit: () => void;
};

/** A pick or a rearrangement replaces the whole (encoded) answer, by the candidate's hand, as an MCQ pick does. */
export const WHOLE: AnswerEdit = { source: 'typed', whole: true };

/** The classes of a native select beside the exam's other fields (@exam/ui/input's look). */
export const selectClass =
  'h-10 rounded-lg border border-line bg-surface px-2 text-sm text-ink focus:border-brand-500 focus:ring-2 focus:ring-brand-100 disabled:bg-canvas disabled:text-muted';
