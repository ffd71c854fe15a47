import { randomUUID } from 'node:crypto';
import { openTestDatabase } from '@exam/server-kit/testing';
import { inArray } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { MIGRATIONS_FOLDER, MIGRATIONS_SCHEMA } from '../db/database.ts';
import * as schema from '../db/schema.ts';
import { codeRuns, workspaces } from '../db/schema.ts';
import { buildTestApp, type TestApp } from '../testing/app.ts';

function sample(text: string, name: string, labels: Record<string, string>): number {
  const line = text
    .split('\n')
    .find((l) => l.startsWith(`${name}{`) && Object.entries(labels).every(([k, v]) => l.includes(`${k}="${v}"`)));
  return line === undefined ? 0 : Number(line.slice(line.lastIndexOf(' ') + 1));
}

describe('workspace-orchestrator metrics', () => {
  let app: TestApp;
  afterEach(() => app.close());

  it('reports live sessions by state and type, and the code-run queue by state', async () => {
    app = await buildTestApp({ env: { METRICS_CACHE_MS: '0' } });
    const scrape = async () => (await app.inject({ method: 'GET', url: '/metrics' })).body;
    // A type no other test uses, so the counts start at zero whatever ran before.
    const type = `metrics-${randomUUID().slice(0, 8)}`;
    const before = await scrape();
    const now = new Date();
    const session = (status: 'warm' | 'ready' | 'ended') => ({
      id: randomUUID(),
      backend: 'docker' as const,
      workspaceType: type,
      egress: 'none' as const,
      status,
      editorPassword: 'pw',
      createdAt: now,
      lastActivityAt: now,
      ...(status === 'ended' ? { endedAt: now } : {}),
    });
    // The same shared test database the app was built on.
    const { db } = await openTestDatabase({
      schema,
      migrationsFolder: MIGRATIONS_FOLDER,
      migrationsSchema: MIGRATIONS_SCHEMA,
    });
    const sessions = [session('warm'), session('ready'), session('ready'), session('ended')];
    await db.insert(workspaces).values(sessions);
    const run = (state: 'queued' | 'running' | 'done') => ({
      id: randomUUID(),
      purpose: 'check' as const,
      language: 'python',
      job: {} as never,
      state,
      queuedAt: now,
    });
    const runs = [run('running'), run('done')];
    await db.insert(codeRuns).values(runs);
    const after = await scrape();
    // Rows no engine knows: gone before a later test's reaper or runner recovery could meet them.
    await db.delete(workspaces).where(
      inArray(
        workspaces.id,
        sessions.map((s) => s.id),
      ),
    );
    await db.delete(codeRuns).where(
      inArray(
        codeRuns.id,
        runs.map((r) => r.id),
      ),
    );
    expect(sample(after, 'workspace_orchestrator_sessions', { state: 'warm', type })).toBe(1);
    expect(sample(after, 'workspace_orchestrator_sessions', { state: 'ready', type })).toBe(2);
    expect(sample(after, 'workspace_orchestrator_sessions', { state: 'ended', type })).toBe(0);
    const running = (text: string) => sample(text, 'workspace_orchestrator_code_runs', { state: 'running' });
    expect(running(after)).toBe(running(before) + 1);
  });
});
