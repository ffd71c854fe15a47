import {
  copyForExam,
  type BankQuestion,
  type CopyBankQuestions,
  type ListBankQuestionsQuery,
  type SaveBankQuestion,
} from '@exam/domain/bank';
import { AppError, ErrorCode } from '@exam/domain/errors';
import type { Exam } from '@exam/domain/exam';
import type { Question } from '@exam/domain/question';
import type { Deps } from '../../deps.ts';
import type { ExamsService } from '../exams/exams.service.ts';
import type { BankRepository } from './bank.repository.ts';

/** UpdateExamSchema's limit on an exam's questions. */
const MAX_EXAM_QUESTIONS = 500;

const notFound = () => new AppError(ErrorCode.NOT_FOUND, 'Question not found in your bank');

/** A question as the bank keeps it: links to one exam's rubric or pool do not travel. */
const forBank = (q: Question): Question => ({ ...q, rubricId: null, poolId: null, sectionId: null });

/**
 * The creator's question bank (docs/product.md#question-bank). Exams are read and changed through the exams
 * service, so ownership, validation and the exam's lifecycle rules stay in one place.
 */
export function createBankService(
  repo: BankRepository,
  exams: Pick<ExamsService, 'get' | 'update'>,
  deps: Pick<Deps, 'clock' | 'ids'>,
) {
  return {
    async save(ownerId: string, input: SaveBankQuestion): Promise<BankQuestion> {
      let question = input.question;
      if (!question) {
        // An exam the creator has no role on is 404 from exams.get, like one that does not exist; the question is
        // copied into the caller's own bank, so reading the exam's questions is enough.
        const exam = await exams.get(ownerId, input.examId!, 'exam:read-content');
        question = exam.questions.find((q) => q.id === input.questionId);
        if (!question)
          throw new AppError(ErrorCode.NOT_FOUND, 'The exam has no question with that id', [
            { path: 'questionId', message: 'The exam has no question with that id' },
          ]);
      }
      const now = deps.clock.now();
      return repo.insert({ id: deps.ids.next(), ownerId, question: forBank(question), createdAt: now, updatedAt: now });
    },

    list(ownerId: string, query: ListBankQuestionsQuery): Promise<BankQuestion[]> {
      return repo.list(ownerId, {
        limit: query.limit,
        ...(query.search ? { search: query.search } : {}),
        ...(query.topic ? { topic: query.topic } : {}),
      });
    },

    async update(ownerId: string, id: string, question: Question): Promise<BankQuestion> {
      const updated = await repo.update(ownerId, id, forBank(question), deps.clock.now());
      if (!updated) throw notFound();
      return updated;
    },

    async remove(ownerId: string, id: string): Promise<{ id: string }> {
      if (!(await repo.remove(ownerId, id))) throw notFound();
      return { id };
    },

    /** Appends copies of bank questions (fresh ids) to the owner's exam; the exam never refers to the bank. */
    async copyToExam(ownerId: string, input: CopyBankQuestions): Promise<Exam> {
      const exam = await exams.get(ownerId, input.examId, 'exam:edit');
      const found = await repo.findMany(ownerId, input.ids);
      const known = new Set(found.map((b) => b.id));
      const missing = input.ids.findIndex((id) => !known.has(id));
      if (missing >= 0)
        throw new AppError(ErrorCode.NOT_FOUND, 'Question not found in your bank', [
          { path: `ids.${missing}`, message: 'Question not found in your bank' },
        ]);
      if (exam.questions.length + found.length > MAX_EXAM_QUESTIONS)
        throw new AppError(ErrorCode.VALIDATION, `An exam holds at most ${MAX_EXAM_QUESTIONS} questions`, [
          { path: 'ids', message: `An exam holds at most ${MAX_EXAM_QUESTIONS} questions` },
        ]);
      const copies = found.map((b) => copyForExam(b.question, deps.ids.next()));
      return exams.update(ownerId, exam.id, { questions: [...exam.questions, ...copies] });
    },
  };
}
export type BankService = ReturnType<typeof createBankService>;
