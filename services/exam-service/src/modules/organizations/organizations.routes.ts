import { AppError, ErrorBodySchema, ErrorCode } from '@exam/domain/errors';
import {
  OrganizationInvitationListSchema,
  OrganizationInviteCreateSchema,
  OrganizationMemberUpdateSchema,
  OrganizationMessages,
  OrganizationRoleSchema,
  OrganizationSchema,
  OrganizationUpdateSchema,
  SsoDiscoveryRequestSchema,
  SsoDiscoveryResultSchema,
  SsoSettingsUpdateSchema,
} from '@exam/domain/organizations';
import { creatorOf } from '@exam/server-kit/plugins/auth';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { Actor, OrganizationsService } from './organizations.service.ts';

const MyOrganizationSchema = z.object({ organizationId: z.string(), name: z.string(), role: OrganizationRoleSchema });

export function organizationsRoutes(service: OrganizationsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const actors = new WeakMap<FastifyRequest, Actor>();

    /** The route's guard: the signed-in creator must be an admin of their organization. */
    const requireOrganizationAdmin = async (request: FastifyRequest) => {
      const userId = creatorOf(request).sub;
      const membership = await service.membershipOf(userId);
      if (membership?.role !== 'admin') throw new AppError(ErrorCode.FORBIDDEN, OrganizationMessages.notAdmin);
      actors.set(request, { userId, organizationId: membership.organizationId });
    };
    const actorOf = (request: FastifyRequest): Actor => actors.get(request)!;
    const admin = { onRequest: [app.requireCreator], preHandler: [requireOrganizationAdmin] };
    const denied = { 401: ErrorBodySchema, 403: ErrorBodySchema };

    app.get(
      '/api/organization/me',
      {
        onRequest: [app.requireCreator],
        schema: {
          tags: ['organizations'],
          response: { 200: MyOrganizationSchema, 401: ErrorBodySchema, 404: ErrorBodySchema },
        },
      },
      async (request) => {
        const membership = await service.membershipOf(creatorOf(request).sub);
        if (!membership) throw new AppError(ErrorCode.NOT_FOUND, OrganizationMessages.memberNotFound);
        const organization = await service.get(membership.organizationId);
        return { organizationId: membership.organizationId, name: organization.name, role: membership.role };
      },
    );

    const invitationParams = z.object({ organizationId: z.string().min(1).max(200) });
    app.get(
      '/api/organization/invitations',
      {
        onRequest: [app.requireCreator],
        schema: {
          tags: ['organizations'],
          description: 'Invitations from other organizations waiting for the signed-in creator.',
          response: { 200: OrganizationInvitationListSchema, 401: ErrorBodySchema },
        },
      },
      async (request) => ({ invitations: await service.invitationsOf(creatorOf(request).sub) }),
    );

    app.post(
      '/api/organization/invitations/:organizationId/accept',
      {
        onRequest: [app.requireCreator],
        schema: {
          tags: ['organizations'],
          description:
            'Moves the signed-in creator into the inviting organization (their exams stay theirs); 409 when they are the last admin of an organization others are still in; 404 without a pending invitation.',
          params: invitationParams,
          response: { 200: MyOrganizationSchema, 401: ErrorBodySchema, 404: ErrorBodySchema, 409: ErrorBodySchema },
        },
      },
      async (request) => {
        const userId = creatorOf(request).sub;
        await service.acceptInvitation(userId, request.params.organizationId);
        const membership = (await service.membershipOf(userId))!;
        const organization = await service.get(membership.organizationId);
        return { organizationId: membership.organizationId, name: organization.name, role: membership.role };
      },
    );

    app.delete(
      '/api/organization/invitations/:organizationId',
      {
        onRequest: [app.requireCreator],
        schema: {
          tags: ['organizations'],
          description: 'Declines an invitation from another organization.',
          params: invitationParams,
          response: { 200: invitationParams, 401: ErrorBodySchema, 404: ErrorBodySchema },
        },
      },
      async (request) => {
        await service.declineInvitation(creatorOf(request).sub, request.params.organizationId);
        return { organizationId: request.params.organizationId };
      },
    );

    app.get(
      '/api/organization',
      { ...admin, schema: { tags: ['organizations'], response: { 200: OrganizationSchema, ...denied } } },
      async (request) => service.get(actorOf(request).organizationId),
    );

    app.patch(
      '/api/organization',
      {
        ...admin,
        schema: {
          tags: ['organizations'],
          body: OrganizationUpdateSchema,
          response: { 200: OrganizationSchema, 400: ErrorBodySchema, ...denied },
        },
      },
      async (request) => {
        await service.update(actorOf(request), request.body);
        return service.get(actorOf(request).organizationId);
      },
    );

    app.post(
      '/api/organization/invites',
      {
        ...admin,
        schema: {
          tags: ['organizations'],
          body: OrganizationInviteCreateSchema,
          response: { 201: OrganizationSchema, 400: ErrorBodySchema, ...denied },
        },
      },
      async (request, reply) => {
        await service.invite(actorOf(request), request.body);
        return reply.status(201).send(await service.get(actorOf(request).organizationId));
      },
    );

    app.delete(
      '/api/organization/invites/:email',
      {
        ...admin,
        schema: {
          tags: ['organizations'],
          params: z.object({ email: z.string().min(1).max(320) }),
          response: { 200: OrganizationSchema, 404: ErrorBodySchema, ...denied },
        },
      },
      async (request) => {
        await service.cancelInvite(actorOf(request), request.params.email);
        return service.get(actorOf(request).organizationId);
      },
    );

    const memberParams = z.object({ userId: z.string().min(1).max(200) });

    app.patch(
      '/api/organization/members/:userId',
      {
        ...admin,
        schema: {
          tags: ['organizations'],
          params: memberParams,
          body: OrganizationMemberUpdateSchema,
          response: { 200: OrganizationSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, ...denied },
        },
      },
      async (request) => {
        await service.setRole(actorOf(request), request.params.userId, request.body.role);
        return service.get(actorOf(request).organizationId);
      },
    );

    app.delete(
      '/api/organization/members/:userId',
      {
        ...admin,
        schema: {
          tags: ['organizations'],
          params: memberParams,
          response: { 200: OrganizationSchema, 400: ErrorBodySchema, 404: ErrorBodySchema, ...denied },
        },
      },
      async (request) => {
        const actor = actorOf(request);
        const member = (await service.get(actor.organizationId)).members.find(
          (m) => m.userId === request.params.userId,
        );
        if (!member) throw new AppError(ErrorCode.NOT_FOUND, OrganizationMessages.memberNotFound);
        await service.removeMember(actor, member.userId, member.email);
        return service.get(actor.organizationId);
      },
    );

    app.put(
      '/api/organization/sso',
      {
        ...admin,
        schema: {
          tags: ['organizations'],
          body: SsoSettingsUpdateSchema,
          response: { 200: OrganizationSchema, 400: ErrorBodySchema, 409: ErrorBodySchema, ...denied },
        },
      },
      async (request) => {
        await service.putSso(actorOf(request), request.body);
        return service.get(actorOf(request).organizationId);
      },
    );

    app.post(
      '/api/organization/sso/discovery',
      {
        ...admin,
        schema: {
          tags: ['organizations'],
          body: SsoDiscoveryRequestSchema,
          response: { 200: SsoDiscoveryResultSchema, 400: ErrorBodySchema, ...denied },
        },
      },
      async (request) => service.discoverIssuer(request.body.issuer),
    );
  };
}
