import {
  BankQuestionEnvelopeSchema,
  BankQuestionListSchema,
  BankQuestionParamsSchema,
  CopyBankQuestionsSchema,
  ListBankQuestionsQuerySchema,
  SaveBankQuestionSchema,
  UpdateBankQuestionSchema,
} from '@exam/domain/bank';
import { ErrorBodySchema } from '@exam/domain/errors';
import { DeletedSchema, ExamEnvelopeSchema } from '@exam/domain/exam';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { BankService } from './bank.service.ts';

const errors = { 401: ErrorBodySchema, 403: ErrorBodySchema };

/** The creator's question bank. Every route is creator-only and sees only the caller's questions. */
export function bankRoutes(service: BankService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const guarded = { onRequest: [app.requireCreator] };
    const tags = ['bank'];

    app.post(
      '/api/bank/questions',
      {
        ...guarded,
        schema: {
          tags,
          description:
            'Saves a question to the bank: one typed in (`question`), or one of an exam (`examId`, `questionId`).',
          body: SaveBankQuestionSchema,
          response: { 201: BankQuestionEnvelopeSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send({ bankQuestion: await service.save(creatorOf(request).sub, request.body) }),
    );

    app.get(
      '/api/bank/questions',
      {
        ...guarded,
        schema: {
          tags,
          querystring: ListBankQuestionsQuerySchema,
          response: { 200: BankQuestionListSchema, 400: ErrorBodySchema, ...errors },
        },
      },
      async (request) => ({ questions: await service.list(creatorOf(request).sub, request.query) }),
    );

    app.put(
      '/api/bank/questions/:id',
      {
        ...guarded,
        schema: {
          tags,
          params: BankQuestionParamsSchema,
          body: UpdateBankQuestionSchema,
          response: { 200: BankQuestionEnvelopeSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, ...errors },
        },
      },
      async (request) => ({
        bankQuestion: await service.update(creatorOf(request).sub, request.params.id, request.body.question),
      }),
    );

    app.delete(
      '/api/bank/questions/:id',
      {
        ...guarded,
        schema: {
          tags,
          params: BankQuestionParamsSchema,
          response: { 200: DeletedSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, ...errors },
        },
      },
      async (request) => service.remove(creatorOf(request).sub, request.params.id),
    );

    app.post(
      '/api/bank/questions/copy',
      {
        ...guarded,
        schema: {
          tags,
          description:
            'Appends copies of bank questions to one of your exams (new ids, no rubric or pool); later bank edits never change the exam.',
          body: CopyBankQuestionsSchema,
          response: { 200: ExamEnvelopeSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, ...errors },
        },
      },
      async (request) => ({ exam: await service.copyToExam(creatorOf(request).sub, request.body) }),
    );
  };
}
