import {
  CollaborationJudgementSchema,
  CollaborationParamsSchema,
  CollaborationProfileSchema,
  SetCollaborationLevelSchema,
} from '@exam/domain/collaboration';
import { ErrorBodySchema } from '@exam/domain/errors';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { CollaborationService } from './collaboration.service.ts';
import { actorOf, scopeOf } from '../../access/exam-guard.ts';

const ResultParamsSchema = CollaborationParamsSchema.pick({ resultId: true });
const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/**
 * The collaboration profile (docs/product.md#collaboration-profile), for the exam's owner only: anyone else's result
 * answers 404 as if it did not exist.
 */
export function collaborationRoutes(service: CollaborationService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const guard = { onRequest: app.requireCreator };

    app.get(
      '/api/results/:resultId/collaboration',
      {
        ...guard,
        preHandler: app.requireCapability('results:read', { result: 'resultId' }),
        schema: {
          tags: ['results'],
          summary: 'How the candidate worked with the assistant: framing, verification, integration, independence',
          description:
            "Four dimensions, each a level 0–4 with its basis, figures and evidence. Integration comes from the answers' provenance (characters taken from the assistant and kept unchanged); independence from the candidate's aided/unaided gap in the exam's insights; framing and verification are a grader's decision on an AI suggestion (null until decided), with their process figures beside. A part that could not be read is named in `unavailable`. Describes; never changes a score.",
          params: ResultParamsSchema,
          response: { 200: CollaborationProfileSchema, ...errors },
        },
      },
      async (request) => service.profile(request.params.resultId, scopeOf(request).ownerId),
    );

    app.post(
      '/api/results/:resultId/collaboration/suggestions',
      {
        ...guard,
        preHandler: app.requireCapability('results:grade', { result: 'resultId' }),
        schema: {
          tags: ['results'],
          summary: 'Asks the AI to suggest the framing and verification levels',
          description:
            "Sends the exam's provider (through llm-gateway) the questions and the candidate's conversation with the assistant (name, ID and e-mail masked) with the process figures, and stores the suggested levels with their rationale and quotes of the candidate's own messages. A new suggestion replaces an undecided one; a decided dimension keeps the grader's level. Spends the exam's grading budget. 400 when the candidate sent the assistant nothing; 409 without a provider, 429 once the grading budget is spent, 502 when the provider failed, 503 when the AI service or the transcript cannot be reached. Answers the updated profile.",
          params: ResultParamsSchema,
          response: {
            201: CollaborationProfileSchema,
            ...errors,
            409: ErrorBodySchema,
            429: ErrorBodySchema,
            502: ErrorBodySchema,
            503: ErrorBodySchema,
          },
        },
      },
      async (request, reply) => {
        const profile = await service.suggest(request.params.resultId, actorOf(request));
        return reply.status(201).send(profile);
      },
    );

    app.put(
      '/api/results/:resultId/collaboration/:dimension',
      {
        ...guard,
        preHandler: app.requireCapability('results:grade', { result: 'resultId' }),
        schema: {
          tags: ['results'],
          summary: "The grader's level of a judged dimension (framing or verification)",
          description:
            "Accepted when it equals the AI's suggestion, edited otherwise; the agreement figures on insights compare the two. 409 before a suggestion of the dimension exists.",
          params: CollaborationParamsSchema,
          body: SetCollaborationLevelSchema,
          response: { 200: CollaborationJudgementSchema, ...errors, 409: ErrorBodySchema },
        },
      },
      async (request) => {
        const { resultId, dimension } = request.params;
        return service.setLevel(resultId, dimension, request.body.level, actorOf(request));
      },
    );
  };
}
