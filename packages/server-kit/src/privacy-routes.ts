import { ErrorBodySchema } from '@exam/domain/errors';
import {
  PrivacyEraseRequestSchema,
  PrivacyEraseResponseSchema,
  PrivacyExportQuerySchema,
  PrivacyExportSchema,
  type PrivacyEraseRequest,
  type PrivacyExportFile,
  type PrivacyService,
} from '@exam/domain/privacy';
import type { PgTable } from 'drizzle-orm/pg-core';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { eraseCandidateRows, exportCandidateRows, type CandidateTables } from './candidate-data.ts';
import type { Db } from './db.ts';

/**
 * The two internal routes of a service whose candidates' rows are found by attempt id (llm-gateway,
 * workspace-orchestrator): POST /internal/privacy/erase and GET /internal/privacy/export, both for exam-service's
 * privacy module. `beforeErase` removes what lives outside the database (engine volumes) and may add to the counts.
 */
export function attemptPrivacyRoutes(opts: {
  service: PrivacyService;
  db: Db;
  tables: Map<string, PgTable>;
  declared: CandidateTables;
  beforeErase?: (request: PrivacyEraseRequest) => Promise<Record<string, number>>;
  exportFiles?: (attemptIds: string[]) => Promise<PrivacyExportFile[]>;
}) {
  return async (fastify: FastifyInstance) => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    const errors = { 400: ErrorBodySchema, 401: ErrorBodySchema };
    app.post(
      '/internal/privacy/erase',
      {
        onRequest: app.requireInternal,
        schema: {
          hide: true,
          body: PrivacyEraseRequestSchema,
          response: { 200: PrivacyEraseResponseSchema, ...errors },
        },
      },
      async (request) => {
        const outside = (await opts.beforeErase?.(request.body)) ?? {};
        const rows = await opts.db.transaction((tx) =>
          eraseCandidateRows(tx as unknown as Db, opts.tables, opts.declared, request.body),
        );
        return { deleted: { ...rows, ...outside } };
      },
    );
    app.get(
      '/internal/privacy/export',
      {
        onRequest: app.requireInternal,
        schema: {
          hide: true,
          querystring: PrivacyExportQuerySchema,
          response: { 200: PrivacyExportSchema, ...errors },
        },
      },
      async (request) => {
        const { examId, candidateKey, attemptIds } = request.query;
        const out = await exportCandidateRows(opts.db, opts.service, opts.tables, opts.declared, {
          examId,
          candidateKey,
          attemptIds,
        });
        const files = [...out.files, ...((await opts.exportFiles?.(attemptIds)) ?? [])];
        return { service: opts.service, tables: out.tables, files };
      },
    );
  };
}
