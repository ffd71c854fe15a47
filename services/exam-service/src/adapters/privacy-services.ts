import {
  PrivacyAttemptsSchema,
  PrivacyEraseResponseSchema,
  PrivacyExportSchema,
  type PrivacyEraseRequest,
  type PrivacyExport,
  type PrivacyService,
} from '@exam/domain/privacy';
import { createInternalClient, parseUpstream, unexpectedStatus } from '@exam/server-kit/internal-client';

/** The services other than exam-service that hold candidates' data. */
export type RemotePrivacyService = Exclude<PrivacyService, 'exam-service'>;

/** What exam-service's privacy module asks the other services (their modules/privacy). */
export type PrivacyServices = {
  /** results-service: a candidate's attempts, or (with `before`) those past the exam's retention period. */
  attempts(query: {
    examId: string;
    candidateKey?: string;
    before?: Date;
  }): Promise<Array<{ attemptId: string; candidateKey: string }>>;
  erase(service: RemotePrivacyService, request: PrivacyEraseRequest): Promise<Record<string, number>>;
  export(
    service: RemotePrivacyService,
    query: { examId: string; candidateKey: string; attemptIds: string[] },
  ): Promise<PrivacyExport>;
};

/** Over HTTP with the internal token; an erasure may take a while (volumes, many rows), so it waits longer. */
export function createHttpPrivacyServices(
  urls: Record<RemotePrivacyService, string>,
  internalToken: string,
): PrivacyServices & { close(): void } {
  const clients = Object.fromEntries(
    Object.entries(urls).map(([service, url]) => [
      service,
      createInternalClient(url, internalToken, { timeoutMs: 60_000 }),
    ]),
  ) as Record<RemotePrivacyService, ReturnType<typeof createInternalClient>>;
  return {
    async attempts(query) {
      const params = new URLSearchParams({ examId: query.examId });
      if (query.candidateKey) params.set('candidateKey', query.candidateKey);
      if (query.before) params.set('before', query.before.toISOString());
      const { status, body } = await clients['results-service'](`/internal/privacy/attempts?${params}`);
      if (status !== 200) throw unexpectedStatus('results-service', status, 'the attempts of a candidate');
      return parseUpstream('results-service', PrivacyAttemptsSchema, body, 'attempts').attempts;
    },
    async erase(service, request) {
      const { status, body } = await clients[service]('/internal/privacy/erase', { method: 'POST', body: request });
      if (status !== 200) throw unexpectedStatus(service, status, "an erasure of a candidate's data");
      return parseUpstream(service, PrivacyEraseResponseSchema, body, 'an erasure').deleted;
    },
    async export(service, query) {
      const params = new URLSearchParams({
        examId: query.examId,
        candidateKey: query.candidateKey,
        attemptIds: query.attemptIds.join(','),
      });
      const { status, body } = await clients[service](`/internal/privacy/export?${params}`);
      if (status !== 200) throw unexpectedStatus(service, status, "an export of a candidate's data");
      return parseUpstream(service, PrivacyExportSchema, body, 'an export');
    },
    close() {
      for (const client of Object.values(clients)) client.close();
    },
  };
}
