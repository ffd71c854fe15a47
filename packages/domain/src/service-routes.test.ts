import { describe, expect, it } from 'vitest';
import { SERVICE_ROUTES, type ServiceName } from './service-routes.ts';

/** The service the web servers' proxy sends a request target to (first match, as Vite's proxy does). */
const serviceOf = (target: string): ServiceName | undefined =>
  SERVICE_ROUTES.find(([pattern]) => new RegExp(pattern).test(target))?.[1];

describe('SERVICE_ROUTES', () => {
  it('routes a path to its service with or without a query string', () => {
    expect(serviceOf('/api/results')).toBe('results-service');
    expect(serviceOf('/api/results?examId=e1&limit=50')).toBe('results-service');
    expect(serviceOf('/api/results/summary')).toBe('results-service');
    expect(serviceOf('/api/reports/abc_DEF-123')).toBe('results-service');
    expect(serviceOf('/api/attempts/a1/exam')).toBe('results-service');
    expect(serviceOf('/api/exams/e1/results.csv')).toBe('results-service');
    expect(serviceOf('/api/exams/e1/insights?refresh=1')).toBe('results-service');
    expect(serviceOf('/api/exams/e1/questions/2/answers?names=true')).toBe('results-service');
    expect(serviceOf('/api/exams/e1/grading/agreement')).toBe('results-service');
    expect(serviceOf('/api/exams/e1/questionnaire')).toBe('exam-service');
    expect(serviceOf('/api/exams/e1/regrade?dryRun=true')).toBe('results-service');
    expect(serviceOf('/api/exams/e1/release')).toBe('results-service');
    expect(serviceOf('/api/exams/e1/overrides')).toBe('results-service');
    expect(serviceOf('/api/exams/e1/overrides/S-1')).toBe('results-service');
    expect(serviceOf('/api/exams/e1')).toBe('exam-service');
    expect(serviceOf('/api/exams/e1/live')).toBe('results-service');
    expect(serviceOf('/api/exams/e1/live?since=1')).toBe('results-service');
    expect(serviceOf('/api/exams/e1/announcements')).toBe('results-service');
    expect(serviceOf('/api/exams/e1/attempts/a1/end')).toBe('results-service');
    expect(serviceOf('/api/exams/e1/lively')).toBe('exam-service');
    expect(serviceOf('/api/exams?draft=true')).toBe('exam-service');
    expect(serviceOf('/api/public/exams/e1')).toBe('exam-service');
    expect(serviceOf('/api/bank/questions?search=cell')).toBe('exam-service');
    expect(serviceOf('/api/llm?x=1')).toBe('llm-gateway');
    expect(serviceOf('/api/exams/e1/solvability-checks')).toBe('llm-gateway');
    expect(serviceOf('/api/exams/e1/solvability-checks/latest')).toBe('llm-gateway');
    expect(serviceOf('/api/exams/e1/solvability-checks/c1/cancel')).toBe('llm-gateway');
    expect(serviceOf('/api/exams/e1/solvability-checksum')).toBe('exam-service');
    expect(serviceOf('/api/sessions?attempt=1')).toBe('workspace-orchestrator');
    expect(serviceOf('/api/lti/platforms')).toBe('exam-service');
    expect(serviceOf('/api/admin/status')).toBe('exam-service');
    expect(serviceOf('/api/admin/me')).toBe('exam-service');
    expect(serviceOf('/api/organization')).toBe('exam-service');
    expect(serviceOf('/api/organization/sso/discovery')).toBe('exam-service');
    expect(serviceOf('/lti/login?iss=https%3A%2F%2Flms.example')).toBe('exam-service');
    expect(serviceOf('/lti/launch')).toBe('exam-service');
    expect(serviceOf('/lti/jwks')).toBe('exam-service');
    expect(serviceOf('/lti/elsewhere')).toBeUndefined();
  });

  it('does not take a longer name for a prefix', () => {
    expect(serviceOf('/api/resultsx')).toBeUndefined();
    expect(serviceOf('/api/llmfoo')).toBeUndefined();
  });
});
