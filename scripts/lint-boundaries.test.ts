import { join } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';
import { moduleOrderZones } from '../eslint.config.js';

/**
 * The import boundaries of ARCHITECTURE.md ("Layers") are lint rules; each case lints a deliberate
 * violation placed at a real path of the tree and expects the rule to fail it (and the allowed twin to pass).
 */
const root = join(import.meta.dirname, '..');
const eslint = new ESLint({ cwd: root });

async function ruleIdsFor(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(root, file) });
  return (result?.messages ?? []).map((m) => m.ruleId ?? m.message);
}

// The first case pays for loading the typed lint configuration cold (seconds on a fresh clone of a busy box).
describe('import boundaries', { timeout: 60_000 }, () => {
  it('fails a feature of an app importing another feature, and passes its own files', async () => {
    const file = 'apps/creator-web/src/features/grading/components/boundary-probe.tsx';
    expect(await ruleIdsFor(file, "export { rankCandidates } from '../../insights/ranking.ts';\n")).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await ruleIdsFor(file, "export * from '../../grading/grading-state.ts';\n")).toEqual([]);
  });

  it('fails a feature importing the app layer above it', async () => {
    const file = 'apps/creator-web/src/features/grading/components/boundary-probe.tsx';
    expect(await ruleIdsFor(file, "export * from '../../../app/router.tsx';\n")).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it('fails a service db file importing a module (an arrow up the layers)', async () => {
    const file = 'services/exam-service/src/db/boundary-probe.ts';
    expect(await ruleIdsFor(file, "export * from '../modules/exams/exams.service.ts';\n")).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it("fails a service module importing a module above it in the service's module order, and passes the arrow down", async () => {
    const file = 'services/exam-service/src/modules/exams/boundary-probe.ts';
    expect(await ruleIdsFor(file, "export * from '../roster/roster.service.ts';\n")).toContain(
      'import-x/no-restricted-paths',
    );
    expect(await ruleIdsFor(file, "export * from '../auth/auth.service.ts';\n")).toEqual([]);
    // results-service's old two-way pairs: accommodations ⇄ attempts, lti ⇄ results.
    const accommodations = 'services/results-service/src/modules/accommodations/boundary-probe.ts';
    expect(await ruleIdsFor(accommodations, "export * from '../attempts/admission.ts';\n")).toContain(
      'import-x/no-restricted-paths',
    );
    const lti = 'services/results-service/src/modules/lti/boundary-probe.ts';
    expect(await ruleIdsFor(lti, "export * from '../results/results.service.ts';\n")).toContain(
      'import-x/no-restricted-paths',
    );
    const scoring = 'services/results-service/src/scoring/boundary-probe.ts';
    expect(await ruleIdsFor(scoring, "export * from '../modules/grading/grading.service.ts';\n")).toContain(
      'import-x/no-restricted-paths',
    );
    // The pair of a two-way import fails on one side whichever module writes it.
    const gateway = 'services/llm-gateway/src/modules/chat/boundary-probe.ts';
    expect(await ruleIdsFor(gateway, "export * from '../transcripts/transcripts.routes.ts';\n")).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it('refuses a module folder that the module order does not place', () => {
    expect(() => moduleOrderZones('exam-service', ['auth', 'exams', 'new-feature'])).toThrow(
      /does not place: new-feature/,
    );
    const [auth] = moduleOrderZones('exam-service', ['auth', 'exams']);
    expect(auth).toMatchObject({
      target: 'services/exam-service/src/modules/auth',
      from: ['services/exam-service/src/modules/exams'],
    });
  });

  it('fails a service importing another service', async () => {
    const file = 'services/exam-service/src/modules/exams/boundary-probe.ts';
    expect(await ruleIdsFor(file, "export * from '../../../../results-service/src/config.ts';\n")).toContain(
      'import-x/no-restricted-paths',
    );
  });

  it('fails production code importing a test helper, and lets a test import it', async () => {
    const code = "export * from '../../testing/app.ts';\n";
    expect(await ruleIdsFor('services/exam-service/src/modules/exams/boundary-probe.ts', code)).toContain(
      'no-restricted-imports',
    );
    expect(await ruleIdsFor('services/exam-service/src/modules/exams/boundary-probe.test.ts', code)).toEqual([]);
    expect(await ruleIdsFor('packages/server-kit/src/boundary-probe.ts', "export * from 'msw';\n")).toContain(
      'no-restricted-imports',
    );
  });

  it('fails the domain importing anything but zod and itself', async () => {
    const file = 'packages/domain/src/boundary-probe.ts';
    expect(await ruleIdsFor(file, "export { default } from 'fastify';\n")).toContain('no-restricted-imports');
    expect(await ruleIdsFor(file, "export * from 'zod';\nexport * from './errors.ts';\n")).toEqual([]);
  });

  it('fails the client transport importing a framework or Node, and passes the domain and itself', async () => {
    const file = 'packages/client/src/boundary-probe.ts';
    expect(await ruleIdsFor(file, "export { readFileSync } from 'node:fs';\n")).toContain('no-restricted-imports');
    expect(await ruleIdsFor(file, "export { useState } from 'react';\n")).toContain('no-restricted-imports');
    expect(await ruleIdsFor(file, "export * from '@exam/domain/llm';\nexport * from './llm-stream.ts';\n")).toEqual([]);
  });

  it('fails the interchange package importing I/O or a framework, and passes its libraries', async () => {
    const file = 'packages/interchange/src/boundary-probe.ts';
    expect(await ruleIdsFor(file, "export { readFileSync } from 'node:fs';\n")).toContain('no-restricted-imports');
    expect(await ruleIdsFor(file, "export { default } from 'fastify';\n")).toContain('no-restricted-imports');
    expect(
      await ruleIdsFor(file, "export { unzipSync } from 'fflate';\nexport { XMLParser } from 'fast-xml-parser';\n"),
    ).toEqual([]);
  });
});
