import { ErrorBodySchema } from '@exam/domain/errors';
import { DeletedSchema } from '@exam/domain/exam';
import {
  AddExamMemberResponseSchema,
  AddExamMemberSchema,
  ExamInviteParamsSchema,
  ExamMemberParamsSchema,
  ExamMembersResponseSchema,
  ExamMemberViewSchema,
  UpdateExamMemberSchema,
} from '@exam/domain/sharing';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { SharingService } from './sharing.service.ts';

const ExamParams = z.object({ id: z.string().min(1).max(64) });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** Sharing an exam with other creators in roles; the owner's only (exam:share, @exam/domain/roles). */
export function sharingRoutes(service: SharingService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const guarded = { onRequest: [app.requireCreator] };
    const tags = ['sharing'];

    app.get(
      '/api/exams/:id/members',
      {
        ...guarded,
        schema: {
          tags,
          description: "The exam's owner, members and pending invites.",
          params: ExamParams,
          response: { 200: ExamMembersResponseSchema, ...errors },
        },
      },
      async (request) => service.list(creatorOf(request).sub, request.params.id),
    );

    app.post(
      '/api/exams/:id/members',
      {
        ...guarded,
        schema: {
          tags,
          description:
            'Shares the exam with an e-mail in a role: a member when the e-mail has an account, else a pending invite; either is sent a notice.',
          params: ExamParams,
          body: AddExamMemberSchema,
          response: { 201: AddExamMemberResponseSchema, 409: ErrorBodySchema, ...errors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await service.add(creatorOf(request).sub, request.params.id, request.body)),
    );

    app.patch(
      '/api/exams/:id/members/:creatorId',
      {
        ...guarded,
        schema: {
          tags,
          params: ExamMemberParamsSchema,
          body: UpdateExamMemberSchema,
          response: { 200: ExamMemberViewSchema, ...errors },
        },
      },
      async (request) =>
        service.update(creatorOf(request).sub, request.params.id, request.params.creatorId, request.body),
    );

    app.delete(
      '/api/exams/:id/members/:creatorId',
      { ...guarded, schema: { tags, params: ExamMemberParamsSchema, response: { 200: DeletedSchema, ...errors } } },
      async (request) => {
        await service.remove(creatorOf(request).sub, request.params.id, request.params.creatorId);
        return { id: request.params.creatorId };
      },
    );

    app.delete(
      '/api/exams/:id/invites/:email',
      { ...guarded, schema: { tags, params: ExamInviteParamsSchema, response: { 200: DeletedSchema, ...errors } } },
      async (request) => {
        await service.removeInvite(creatorOf(request).sub, request.params.id, request.params.email);
        return { id: request.params.email };
      },
    );
  };
}
