import { ErrorBodySchema } from '@exam/domain/errors';
import { DeletedSchema } from '@exam/domain/exam';
import {
  AdmitRequestSchema,
  AdmitResponseSchema,
  InvitationCountsSchema,
  InvitationIdentitySchema,
  InvitationPreviewSchema,
  InviteRequestSchema,
  InviteResponseSchema,
  ReleaseNoticeRequestSchema,
  ReleaseNoticeResponseSchema,
  RosterEmailsSchema,
  RosterAdmissionUpdateSchema,
  RosterEntryInputSchema,
  RosterEntrySchema,
  RosterImportResponseSchema,
  RosterImportSchema,
  RosterResponseSchema,
} from '@exam/domain/roster';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { AdmissionService } from './admission.service.ts';
import type { NoticesService } from './notices.service.ts';
import type { RosterService } from './roster.service.ts';

const id = z.string().min(1).max(64);
const ExamParams = z.object({ id });
const EntryParams = z.object({ id, entryId: id });
const InvitationParams = z.object({ id, token: z.string().min(1).max(200) });
const creatorErrors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };
const internalErrors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 404: ErrorBodySchema };

/**
 * Rosters and invitations: the creator's routes (owner only), the public invitation lookup for the start
 * page, and the internal admission check and release notices results-service calls.
 */
export function rosterRoutes(roster: RosterService, admission: AdmissionService, notices: NoticesService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const guarded = { onRequest: [app.requireCreator] };
    const tags = ['roster'];

    app.get(
      '/api/exams/:id/roster',
      { ...guarded, schema: { tags, params: ExamParams, response: { 200: RosterResponseSchema, ...creatorErrors } } },
      async (request) => roster.list(creatorOf(request).sub, request.params.id),
    );

    app.put(
      '/api/exams/:id/roster/admission',
      {
        ...guarded,
        schema: {
          tags,
          params: ExamParams,
          body: RosterAdmissionUpdateSchema,
          response: { 200: RosterResponseSchema, ...creatorErrors },
        },
      },
      async (request) => roster.setAdmission(creatorOf(request).sub, request.params.id, request.body.rosterAdmission),
    );

    app.post(
      '/api/exams/:id/roster',
      {
        ...guarded,
        schema: {
          tags,
          params: ExamParams,
          body: RosterEntryInputSchema,
          response: { 201: RosterEntrySchema, 409: ErrorBodySchema, ...creatorErrors },
        },
      },
      async (request, reply) =>
        reply.status(201).send(await roster.add(creatorOf(request).sub, request.params.id, request.body)),
    );

    app.put(
      '/api/exams/:id/roster/:entryId',
      {
        ...guarded,
        schema: {
          tags,
          params: EntryParams,
          body: RosterEntryInputSchema,
          response: { 200: RosterEntrySchema, 409: ErrorBodySchema, ...creatorErrors },
        },
      },
      async (request) => roster.update(creatorOf(request).sub, request.params.id, request.params.entryId, request.body),
    );

    app.delete(
      '/api/exams/:id/roster/:entryId',
      { ...guarded, schema: { tags, params: EntryParams, response: { 200: DeletedSchema, ...creatorErrors } } },
      async (request) => {
        await roster.remove(creatorOf(request).sub, request.params.id, request.params.entryId);
        return { id: request.params.entryId };
      },
    );

    app.post(
      '/api/exams/:id/roster/import',
      {
        ...guarded,
        bodyLimit: 1_100_000,
        schema: {
          tags,
          params: ExamParams,
          body: RosterImportSchema,
          response: { 200: RosterImportResponseSchema, ...creatorErrors },
        },
      },
      async (request) => roster.importCsv(creatorOf(request).sub, request.params.id, request.body.csv),
    );

    app.post(
      '/api/exams/:id/invitations',
      {
        ...guarded,
        schema: {
          tags,
          params: ExamParams,
          body: InviteRequestSchema,
          response: { 200: InviteResponseSchema, ...creatorErrors },
        },
      },
      async (request) => roster.invite(creatorOf(request).sub, request.params.id, request.body),
    );

    app.post(
      '/api/exams/:id/invitations/preview',
      {
        ...guarded,
        schema: {
          tags,
          params: ExamParams,
          body: InviteRequestSchema,
          response: { 200: InvitationPreviewSchema, ...creatorErrors },
        },
      },
      async (request) => roster.previewInvitation(creatorOf(request).sub, request.params.id, request.body),
    );

    app.get(
      '/api/exams/invitation-counts',
      {
        ...guarded,
        schema: { tags, response: { 200: InvitationCountsSchema, 401: ErrorBodySchema, 403: ErrorBodySchema } },
      },
      async (request) => roster.invitationCounts(creatorOf(request).sub),
    );

    app.get(
      '/api/public/exams/:id/invitations/:token',
      {
        schema: {
          tags: ['public'],
          params: InvitationParams,
          response: { 200: InvitationIdentitySchema, 400: ErrorBodySchema, 404: ErrorBodySchema },
        },
      },
      async (request) => roster.invitation(request.params.id, request.params.token),
    );

    app.post(
      '/internal/exams/:id/admit',
      {
        onRequest: [app.requireInternal],
        schema: {
          tags: ['internal'],
          params: ExamParams,
          body: AdmitRequestSchema,
          response: { 200: AdmitResponseSchema, 403: ErrorBodySchema, ...internalErrors },
        },
      },
      async (request) => admission.admit(request.params.id, request.body),
    );

    app.post(
      '/internal/exams/:id/release-notices',
      {
        onRequest: [app.requireInternal],
        schema: {
          tags: ['internal'],
          params: ExamParams,
          body: ReleaseNoticeRequestSchema,
          response: { 200: ReleaseNoticeResponseSchema, ...internalErrors },
        },
      },
      async (request) => ({ queued: await notices.releaseNotices(request.params.id, request.body.candidateKeys) }),
    );

    app.get(
      '/internal/exams/:id/roster-emails',
      {
        onRequest: [app.requireInternal],
        schema: {
          tags: ['internal'],
          params: ExamParams,
          response: { 200: RosterEmailsSchema, ...internalErrors },
        },
      },
      async (request) => notices.rosterEmails(request.params.id),
    );
  };
}
