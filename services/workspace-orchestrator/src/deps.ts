import { randomUUID } from 'node:crypto';
import type { CreatorSessionCheck } from '@exam/server-kit/plugins/auth';
import type { AiProvider } from '@exam/domain/ai-catalogue';
import type { CodingWorkspace } from '@exam/domain/exam';
import type { Question } from '@exam/domain/question';
import type { ExamGrantRow, WorkspaceDemand } from '@exam/domain/internal';
import type { ExamAccess } from '@exam/domain/roles';
import type { Config } from './config.ts';
import type { WorkspaceDatabase } from './db/database.ts';
import { createDockerEngine, dockerEngineOptions } from './engine/docker-engine.ts';
import type { WorkspaceEngine } from './engine/engine.ts';
import type { AgentRelay } from './engine/egress/agent-relay.ts';
import type { RegistryProxy } from './engine/egress/registry-proxy.ts';
import { createLocalEngine } from './engine/local-engine.ts';
import { createDockerRunnerEngine, type RunnerEngine } from './engine/runner-engine.ts';

/**
 * The exam as a workspace start needs it: its workspace settings, the assistant's provider and model (an agent
 * uses them, never the key), and its questions (an agentic task's starter repository, a SQL question's setup).
 */
export type WorkspaceExam = {
  codingWorkspace: CodingWorkspace;
  aiSettings: { enabled: boolean; provider: AiProvider; model: string };
  questions: Question[];
};

/** What the orchestrator needs to know about an exam and an attempt, from exam-service and results-service. */
export type ExamDirectory = {
  workspaceSettings(examId: string): Promise<CodingWorkspace>;
  workspaceExam(examId: string): Promise<WorkspaceExam>;
  isAttemptOpen(attemptId: string): Promise<boolean>;
  /** Whether the attempt is open and until when (null: no deadline); an attempt results-service does not know is closed. */
  attemptState(attemptId: string): Promise<{ isOpen: boolean; deadline: string | null }>;
  /** Exams whose window opens within `horizonSeconds` (or opened under `graceSeconds` ago) and how many to expect. */
  workspaceDemand(horizonSeconds: number, graceSeconds: number): Promise<WorkspaceDemand[]>;
  /** The exam's owner and members (roles.ts), for a creator's access; undefined when exam-service does not know it. */
  examAccess(examId: string): Promise<ExamAccess | undefined>;
  /** The exams shared with a creator and their role on each (exam-service's exam grants); owned exams are not listed. */
  examGrants(creatorId: string): Promise<ExamGrantRow[]>;
};

/** What buildApp needs from the outside world; tests pass their own engines, directory or clock. */
export type Deps = {
  database: WorkspaceDatabase;
  clock: { now(): Date };
  ids: { next(): string };
  /** Tried in order: the configured engine first, then the local code-server fallback (Docker only). */
  engines: WorkspaceEngine[];
  directory: ExamDirectory;
  /** The package-registry proxy the Docker engine starts on the egress bridge; the app logs its refusals and closes it. */
  egressProxy?: RegistryProxy;
  /** The AI relay the Docker engine starts on its bridges; the app logs its requests and closes it. */
  agentRelay?: AgentRelay;
  /** Where candidates' and creators' code runs against tests (engine/runner-engine.ts). */
  runnerEngine: RunnerEngine;
  /** Whether a creator token's session is open: a call to exam-service (server-kit creator-sessions.ts). */
  creatorSessions: CreatorSessionCheck;
};

export const systemClock = { now: () => new Date() };
/** Session ids appear in URLs and container names: 32 hex characters, unguessable. */
export const sessionIds = { next: () => randomUUID().replace(/-/g, '') };
/** Run ids: UUIDs (they appear in URLs of results-service and the creator's editor). */
export const runIds = { next: () => randomUUID() };

/**
 * The engines WORKSPACE_ENGINE names, in the order they are tried. Docker keeps the local code-server fallback
 * (a developer's machine without an engine); a Kubernetes deployment has no local machine to fall back to.
 * The Kubernetes engines are imported only when chosen: @kubernetes/client-node alone holds ~26 MB of heap, idle
 * on every Docker host (bench/memory).
 */
export async function workspaceEngines(
  config: Config,
  egressProxy: RegistryProxy,
  agentRelay: AgentRelay,
): Promise<WorkspaceEngine[]> {
  if (config.WORKSPACE_ENGINE === 'kubernetes') {
    const { createKubernetesEngine, kubernetesEngineOptions } = await import('./engine/kubernetes-engine.ts');
    return [createKubernetesEngine(kubernetesEngineOptions(config))];
  }
  const engines: WorkspaceEngine[] = [
    createDockerEngine({
      ...dockerEngineOptions(config),
      // reusePort: replicas on one host share the port; the proxy keeps no state, so any of them may answer.
      egressProxy: { proxy: egressProxy, ports: [config.EGRESS_PROXY_PORT], reusePort: true },
      // Stateless as the egress proxy: replicas on one host share its port.
      agentRelay: { relay: agentRelay, ports: [config.AGENT_RELAY_PORT], reusePort: true },
    }),
  ];
  if (config.CODE_SERVER_BIN)
    engines.push(
      createLocalEngine({
        binary: config.CODE_SERVER_BIN,
        dir: config.localWorkspacesDir,
        ...(config.WORKSPACE_HOST_ID ? { hostId: config.WORKSPACE_HOST_ID } : {}),
      }),
    );
  return engines;
}

/**
 * Where code runs, chosen by the same WORKSPACE_ENGINE as the workspaces: a container per run on the Docker engine,
 * or a pod per run in RUNNER_NAMESPACE of the Kubernetes cluster (engine/kubernetes-runner-engine.ts).
 */
export async function runnerEngineFor(config: Config): Promise<RunnerEngine> {
  if (config.WORKSPACE_ENGINE === 'kubernetes') {
    const { createKubernetesRunnerEngine, kubernetesRunnerOptions } =
      await import('./engine/kubernetes-runner-engine.ts');
    return createKubernetesRunnerEngine(kubernetesRunnerOptions(config));
  }
  return createDockerRunnerEngine({
    socketPath: config.DOCKER_SOCKET,
    instance: config.WORKSPACE_INSTANCE,
    pidsLimit: config.RUNNER_PIDS_LIMIT,
    maxRunMs: config.RUNNER_MAX_RUN_SECONDS * 1000,
  });
}
