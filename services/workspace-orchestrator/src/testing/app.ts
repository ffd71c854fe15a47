import type { AttemptClaims } from '@exam/domain/auth';
import type { CodingWorkspace } from '@exam/domain/exam';
import type { WorkspaceDemand } from '@exam/domain/internal';
import { AppError, ErrorCode } from '@exam/domain/errors';
import { openTestDatabase, TEST_CREATOR_SESSION, TEST_SECRETS, testCreatorSessions } from '@exam/server-kit/testing';
import { buildApp } from '../app.ts';
import { loadConfig, type Config } from '../config.ts';
import { MIGRATIONS_FOLDER, MIGRATIONS_SCHEMA } from '../db/database.ts';
import * as schema from '../db/schema.ts';
import { sessionIds, systemClock, type Deps, type ExamDirectory, type WorkspaceExam } from '../deps.ts';
import { createDockerEngine, dockerEngineOptions } from '../engine/docker-engine.ts';
import { createAgentRelay } from '../engine/egress/agent-relay.ts';
import { createRegistryProxy } from '../engine/egress/registry-proxy.ts';
import { createDockerRunnerEngine } from '../engine/runner-engine.ts';
import { testJobs } from './jobs.ts';
import type { ExamAccess } from '@exam/domain/roles';

export const TAKER_ORIGIN = 'http://taker.test';
export const CREATOR_ORIGIN = 'http://creator.test';
/** Where the test apps' editors are served (the editors' listener, app.editors). */
export const WORKSPACE_ORIGIN = 'http://workspace.test';

export function testConfig(overrides: Record<string, string> = {}): Config {
  return loadConfig({
    ...TEST_SECRETS,
    LOG_LEVEL: 'silent',
    DATA_DIR: '/nonexistent',
    TAKER_ORIGIN,
    CREATOR_ORIGIN,
    WORKSPACE_ORIGIN,
    WORKSPACE_BACKGROUND: 'false',
    WARM_POOL_SIZE: '0',
    // A test that turns the pool on pools vscode only: the engine may hold the real images of the
    // other types (scripts/build-workspace-images.sh), and code-server does not start in 64 MB.
    WARM_POOL_TYPES: 'vscode',
    // vscode is served by the small busybox image; the other types keep their real images.
    WORKSPACE_IMAGE_OVERRIDES: 'vscode=test',
    WORKSPACE_MEMORY_MB: '64',
    WORKSPACE_CPUS: '0.5',
    WORKSPACE_PIDS_LIMIT: '64',
    START_TIMEOUT_SECONDS: '20',
    // Tests send the page-close beacon right after create; the reload race has a test of its own.
    WORKSPACE_PAGE_CLOSE_GRACE_MS: '0',
    ...overrides,
  });
}

/** Exams and attempts as exam-service and results-service would describe them. */
export function fakeDirectory() {
  const exams = new Map<string, CodingWorkspace>();
  /** The rest of an exam (its assistant's provider and model, its questions); unset, no assistant and no questions. */
  const examDetails = new Map<string, Partial<Omit<WorkspaceExam, 'codingWorkspace'>>>();
  /** Attempts' deadlines; unset, none. */
  const deadlines = new Map<string, string>();
  const closed = new Set<string>();
  /** What exam-service would answer to the pool's demand query (every entry, whatever the horizon). */
  const demand: WorkspaceDemand[] = [];
  /** Exams' owners and members (roles.ts); unset, exam-service does not know the exam. */
  const access = new Map<string, ExamAccess>();
  const directory: ExamDirectory = {
    async examAccess(examId) {
      return access.get(examId);
    },
    async examGrants(creatorId) {
      return [...access].flatMap(([examId, exam]) =>
        (exam.members ?? [])
          .filter((m) => m.creatorId === creatorId)
          .map((m) => ({ examId, role: m.role, mayRelease: m.mayRelease })),
      );
    },
    async workspaceDemand() {
      return demand;
    },
    async workspaceSettings(examId) {
      const settings = exams.get(examId);
      if (!settings) throw new AppError(ErrorCode.NOT_FOUND, 'Exam not found');
      return settings;
    },
    async workspaceExam(examId) {
      return {
        codingWorkspace: await directory.workspaceSettings(examId),
        aiSettings: { enabled: false, provider: 'openai', model: 'gpt-4o-mini' },
        questions: [],
        ...examDetails.get(examId),
      };
    },
    async isAttemptOpen(attemptId) {
      return !closed.has(attemptId);
    },
    async attemptState(attemptId) {
      return { isOpen: !closed.has(attemptId), deadline: deadlines.get(attemptId) ?? null };
    },
  };
  return { directory, exams, examDetails, deadlines, closed, demand, access };
}

export type TestApp = Awaited<ReturnType<typeof buildApp>>;

/**
 * The test runs' egress proxies listen on the first free one of these (the PGlite and PostgreSQL suites
 * run at the same time on one engine, each with its own allowlist). 3128, the default, is left to a
 * running orchestrator; vitest.global-setup.ts has host-firewall.sh open the whole range.
 */
export const TEST_EGRESS_PROXY_PORTS = [3129, 3130, 3131, 3132] as const;

/**
 * The test runs' AI relays, likewise: each suite's relay forwards to its own stand-in gateway, so suites never share
 * a port (3140, the default, is left to a running orchestrator; vitest.global-setup.ts opens the range).
 */
export const TEST_AGENT_RELAY_PORTS = [3141, 3142, 3143, 3144] as const;

/** No engine answers here: the app builds and answers 'Workspace Unavailable' (scripts/check-generated.ts needs only its routes). */
export const NO_ENGINE_SOCKET = '/nonexistent/docker.sock';

/** An app on the shared test database and the test Docker engine (none when `socketPath` is left out). */
export async function buildTestApp(
  opts: { socketPath?: string; instance?: string; env?: Record<string, string>; deps?: Partial<Deps> } = {},
) {
  const config = testConfig({
    DOCKER_SOCKET: opts.socketPath ?? NO_ENGINE_SOCKET,
    WORKSPACE_INSTANCE: opts.instance ?? 'none',
    ...opts.env,
  });
  const database = await openTestDatabase({
    schema,
    migrationsFolder: MIGRATIONS_FOLDER,
    migrationsSchema: MIGRATIONS_SCHEMA,
  });
  const egressProxy = createRegistryProxy({ allowed: config.EGRESS_ALLOWED_HOSTS, connectTimeoutMs: 3000 });
  const agentRelay = createAgentRelay({ gatewayUrl: config.LLM_GATEWAY_URL });
  const engine = createDockerEngine({
    ...dockerEngineOptions(config),
    egressProxy: { proxy: egressProxy, ports: TEST_EGRESS_PROXY_PORTS, reusePort: false },
    agentRelay: { relay: agentRelay, ports: TEST_AGENT_RELAY_PORTS, reusePort: false },
  });
  const fake = fakeDirectory();
  const deps: Deps = {
    database,
    clock: systemClock,
    ids: sessionIds,
    engines: [engine],
    directory: fake.directory,
    egressProxy,
    agentRelay,
    creatorSessions: testCreatorSessions(),
    runnerEngine: createDockerRunnerEngine({
      socketPath: config.DOCKER_SOCKET,
      instance: config.WORKSPACE_INSTANCE,
      pidsLimit: config.RUNNER_PIDS_LIMIT,
      maxRunMs: config.RUNNER_MAX_RUN_SECONDS * 1000,
    }),
    ...opts.deps,
  };
  const app = await buildApp(config, deps);
  // The jobs server.ts starts, for the test to run by hand (none runs on its own).
  const jobs = testJobs(app, deps, config);
  app.addHook('onClose', () => jobs.stop());
  await app.ready();
  return Object.assign(app, {
    exams: fake.exams,
    examDetails: fake.examDetails,
    deadlines: fake.deadlines,
    closedAttempts: fake.closed,
    demand: fake.demand,
    /** Exams' owners and members, as exam-service serves them (roles.ts). */
    examAccess: fake.access,
    egressProxy,
    agentRelay,
    jobs,
  });
}

let counter = 0;
/** A fresh attempt of a fresh exam, or of `examId` (workspace enabled), and its bearer token. */
export function newAttempt(
  app: TestApp & { exams: Map<string, CodingWorkspace> },
  settings: Partial<CodingWorkspace> = {},
  ownerId = `owner-${++counter}-${Date.now()}`,
  examId?: string,
) {
  const n = ++counter;
  const claims: AttemptClaims = {
    kind: 'attempt',
    sub: `attempt-${n}-${Date.now()}`,
    examId: examId ?? `exam-${n}-${Date.now()}`,
    ownerId,
    name: `Candidate ${n}`,
    studentId: `S ${n}`,
  };
  app.exams.set(claims.examId, {
    enabled: true,
    saveFilesInResults: true,
    workspaceType: 'vscode',
    allowPackageRegistries: false,
    ...settings,
  });
  const token = app.jwt.sign(claims);
  return { claims, token, headers: { authorization: `Bearer ${token}` } };
}

export function creatorToken(app: TestApp, sub: string) {
  return {
    authorization: `Bearer ${app.jwt.sign({ kind: 'creator', sub, email: `${sub}@example.test`, sid: TEST_CREATOR_SESSION })}`,
  };
}
