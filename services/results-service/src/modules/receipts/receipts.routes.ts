import { AttemptParamsSchema } from '@exam/domain/attempt';
import { ErrorBodySchema } from '@exam/domain/errors';
import { ResultIdParamsSchema } from '@exam/domain/result';
import {
  ProcessReceiptSchema,
  ReceiptKeySetSchema,
  VerifyReceiptResponseSchema,
  VerifyReceiptSchema,
} from '@exam/domain/timeline';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { ownAttempt } from '../attempts/attempts.routes.ts';
import type { ReceiptsService } from './receipts.service.ts';
import { scopeOf } from '../../access/exam-guard.ts';

const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema, 403: ErrorBodySchema, 404: ErrorBodySchema };

/** The candidate's process receipt, the creator's check of one, and the public keys anyone can check one with. */
export function receiptsRoutes(service: ReceiptsService) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();

    app.get(
      '/api/attempts/:attemptId/receipt',
      {
        onRequest: app.requireAttempt,
        preHandler: ownAttempt,
        schema: {
          tags: ['receipts'],
          summary: "The candidate's summary of how their answers came to be, with a signed receipt of it",
          description:
            'After the submit only (409 before). The receipt is a compact JWS (EdDSA, Ed25519) over the attempt, result and exam ids and the summary; GET /api/results/receipt-keys publishes the keys that check it. 404 for an attempt submitted before the platform recorded edits.',
          params: AttemptParamsSchema,
          response: { 200: ProcessReceiptSchema, ...errors, 409: ErrorBodySchema },
        },
      },
      async (request) => service.receipt(request.params.attemptId),
    );

    app.get(
      '/api/results/receipt-keys',
      {
        schema: {
          tags: ['receipts'],
          summary: 'The public keys that sign process receipts (JWK Set), for anyone to check a receipt offline',
          response: { 200: ReceiptKeySetSchema },
        },
      },
      async (_request, reply) => {
        reply.header('cache-control', 'public, max-age=300');
        return service.keySet();
      },
    );

    app.post(
      '/api/results/:id/receipt/verify',
      {
        onRequest: app.requireCreator,
        preHandler: app.requireCapability('results:read', { result: 'id' }),
        schema: {
          tags: ['receipts'],
          summary: "Checks a candidate's receipt against this result",
          description:
            "valid: the signature is this platform's and the receipt names this result's attempt; otherwise reason says why ('signature', 'attempt', 'malformed'), with nothing more of the receipt. matchesRecord: its figures equal the summary stored with the result.",
          params: ResultIdParamsSchema,
          body: VerifyReceiptSchema,
          response: { 200: VerifyReceiptResponseSchema, ...errors },
        },
      },
      async (request) => service.verify(request.params.id, scopeOf(request).ownerId, request.body.receipt),
    );
  };
}
