import { ErrorBodySchema } from '@exam/domain/errors';
import {
  LmsRosterImportResponseSchema,
  LmsRosterPreviewSchema,
  LmsRosterSourceSchema,
  LtiScoreOutcomeSchema,
  LtiScoreRequestSchema,
} from '@exam/domain/lti-ags';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { LmsRosterService } from './lms-roster.service.ts';
import type { LtiScoresService } from './lti-scores.service.ts';

const ExamParams = z.object({ id: z.string().min(1).max(64) });
const creatorErrors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const lmsErrors = { 409: ErrorBodySchema, 502: ErrorBodySchema, 503: ErrorBodySchema };

/**
 * LTI Advantage services: the internal score publisher results-service's passback job calls, and the creator's
 * roster import from the LMS course (Names and Role Provisioning), owner only.
 */
export function advantageRoutes(scores: LtiScoresService, lmsRoster: LmsRosterService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const guarded = { onRequest: [app.requireCreator] };
    const tags = ['roster'];

    app.post(
      '/internal/lti/scores',
      {
        onRequest: [app.requireInternal],
        schema: {
          tags: ['internal'],
          description:
            'Posts a score to an LMS line item (AGS 2.0). 200 says whether the LMS took it and, if not, whether a later try may help; 404 when the platform registration does not exist.',
          body: LtiScoreRequestSchema,
          response: { 200: LtiScoreOutcomeSchema, 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema },
        },
      },
      async (request) => {
        const outcome = await scores.publish(request.body);
        if (!outcome) throw new AppError(ErrorCode.NOT_FOUND, 'LTI platform not found');
        return outcome;
      },
    );

    app.get(
      '/api/exams/:id/roster/lms',
      {
        ...guarded,
        schema: {
          tags,
          description: 'Whether the exam is placed in an LMS course whose roster can be imported, and which.',
          params: ExamParams,
          response: { 200: LmsRosterSourceSchema, ...creatorErrors },
        },
      },
      async (request) => lmsRoster.source(creatorOf(request).sub, request.params.id),
    );

    app.get(
      '/api/exams/:id/roster/lms/preview',
      {
        ...guarded,
        schema: {
          tags,
          description:
            "The LMS course's active learners as the import would add them (candidate ID = LMS user id); writes nothing. 409 when the exam is not placed in such a course, 502/503 when the LMS refuses or cannot be reached.",
          params: ExamParams,
          response: { 200: LmsRosterPreviewSchema, ...creatorErrors, ...lmsErrors },
        },
      },
      async (request) => lmsRoster.preview(creatorOf(request).sub, request.params.id),
    );

    app.post(
      '/api/exams/:id/roster/lms/import',
      {
        ...guarded,
        schema: {
          tags,
          description:
            "Adds the LMS course's active learners to the roster (those already on it get the LMS's name and e-mail).",
          params: ExamParams,
          response: { 200: LmsRosterImportResponseSchema, ...creatorErrors, ...lmsErrors },
        },
      },
      async (request) => lmsRoster.import(creatorOf(request).sub, request.params.id),
    );
  };
}
