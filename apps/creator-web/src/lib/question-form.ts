import { EMPTY_FEEDBACK, type QuestionFeedback } from '@exam/domain/question-kinds';
import type { QuestionSchema, QuestionType } from '@exam/domain/question';
import { get, type FieldErrors } from 'react-hook-form';
import type { z } from 'zod';

/**
 * The question as a form holds it (the POST body's question, defaults not yet applied), and the one shape both the
 * exam editor and the question bank's dialog give the question editors: the question at `questions.{index}`.
 */
export type QuestionInput = z.input<typeof QuestionSchema>;
export type QuestionsForm = { questions: QuestionInput[] };

/**
 * The fields of the further types (question-kinds.ts) a new question of `type` starts with: the schema's defaults,
 * and for each type the least it needs, so the creator starts by typing rather than by adding rows.
 */
export function kindDefaults(type: QuestionType) {
  const feedback: QuestionFeedback = { ...EMPTY_FEEDBACK };
  const measured = type === 'numeric' || type === 'calculated';
  return {
    feedback,
    optionFeedback: [] as string[],
    passageId: null,
    essay: { minWords: null, maxWords: null, formatted: false },
    items: type === 'ordering' ? ['', ''] : [],
    pairs:
      type === 'matching'
        ? [
            { prompt: '', answer: '' },
            { prompt: '', answer: '' },
          ]
        : [],
    distractors: [] as string[],
    gapText: '',
    blanks: [],
    units: { units: [], required: false },
    calculated:
      type === 'calculated'
        ? { formula: '', variables: [{ name: 'x', min: 1, max: 10, decimals: 0 }], answerDecimals: null, values: null }
        : null,
    acceptedAnswers: type === 'numeric' ? [''] : ([] as string[]),
    matching: { caseSensitive: false, numeric: measured ? { tolerance: 0, mode: 'absolute' as const } : null },
  } satisfies Partial<QuestionInput>;
}

/** The message of the form's error at a path ('questions.0.items.1'), whether set on a field or on a list. */
export function errorAt(errors: FieldErrors, path: string): string | undefined {
  const node: unknown = get(errors, path);
  if (!node || typeof node !== 'object') return undefined;
  const message = (node as { message?: unknown; root?: { message?: unknown } }).message;
  if (typeof message === 'string') return message;
  const root = (node as { root?: { message?: unknown } }).root?.message;
  return typeof root === 'string' ? root : undefined;
}
