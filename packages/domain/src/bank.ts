import { z } from 'zod';
import { QuestionSchema } from './question.ts';

/**
 * A creator's question bank (docs/product.md#question-bank): questions saved once and copied into any of
 * their exams. A copy is the exam's own from then on, so editing the bank never changes an exam.
 */

export const BankQuestionSchema = z.object({
  id: z.string(),
  /** The question as saved; its rubric and pool links belong to an exam and are not kept. */
  question: QuestionSchema,
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type BankQuestion = z.infer<typeof BankQuestionSchema>;

/**
 * POST /api/bank/questions: a question typed in, or one of an exam of the caller (examId + questionId).
 * Exactly one of the two.
 */
export const SaveBankQuestionSchema = z
  .object({
    question: QuestionSchema.optional(),
    examId: z.string().min(1).max(64).optional(),
    questionId: z.string().min(1).max(64).optional(),
  })
  .superRefine((body, ctx) => {
    const fromExam = body.examId !== undefined || body.questionId !== undefined;
    if (body.question && fromExam)
      ctx.addIssue({ code: 'custom', path: ['question'], message: 'Send a question or an exam question, not both' });
    else if (!body.question && !(body.examId && body.questionId))
      ctx.addIssue({
        code: 'custom',
        path: body.examId ? ['questionId'] : ['question'],
        message: body.examId ? 'Name the exam’s question to save' : 'Send the question to save',
      });
  });
export type SaveBankQuestion = z.infer<typeof SaveBankQuestionSchema>;

/** PUT /api/bank/questions/{id}. */
export const UpdateBankQuestionSchema = z.object({ question: QuestionSchema });
export type UpdateBankQuestion = z.infer<typeof UpdateBankQuestionSchema>;

/** GET /api/bank/questions: text matches title, content or topic; topic matches the topic exactly (any case). */
export const ListBankQuestionsQuerySchema = z.object({
  search: z.string().trim().max(200).optional(),
  topic: z.string().trim().max(120).optional(),
  limit: z.coerce.number().int().min(1).max(500).default(200),
});
export type ListBankQuestionsQuery = z.infer<typeof ListBankQuestionsQuerySchema>;

export const BankQuestionEnvelopeSchema = z.object({ bankQuestion: BankQuestionSchema });
export const BankQuestionListSchema = z.object({ questions: z.array(BankQuestionSchema) });
export type BankQuestionList = z.infer<typeof BankQuestionListSchema>;

export const BankQuestionParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** POST /api/bank/questions/copy: copies of bank questions appended to one of the caller's exams. */
export const CopyBankQuestionsSchema = z.object({
  examId: z.string().min(1).max(64),
  ids: z.array(z.string().min(1).max(64)).min(1, 'Choose at least one question').max(100),
});
export type CopyBankQuestions = z.infer<typeof CopyBankQuestionsSchema>;

/**
 * A bank question as a new question of an exam: a fresh id, no rubric, pool or section of another exam (it joins
 * the first section, as a question naming none does). `newId` is the caller's (the browser's form or exam-service).
 */
export function copyForExam<
  Q extends { id: string; rubricId: string | null; poolId: string | null; sectionId?: string | null },
>(question: Q, newId: string): Q {
  return { ...question, id: newId, rubricId: null, poolId: null, sectionId: null };
}
