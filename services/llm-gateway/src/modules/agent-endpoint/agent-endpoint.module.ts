import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.ts';
import type { Deps } from '../../deps.ts';
import type { AgentServiceOptions } from './agent-endpoint.service.ts';
import { createAgentCallRepository, type AgentCallRepository } from './agent-endpoint.repository.ts';
import { agentEndpointRoutes } from './agent-endpoint.routes.ts';
import { createAgentService } from './agent-endpoint.service.ts';
import { agentCallRoutes } from './agent-calls.routes.ts';

/**
 * The workspace's AI endpoint (the agents' wire formats) and the reads of its calls, registered from one place.
 * Answers the repository, which the transcripts module reads the calls through.
 */
export async function registerAgentEndpoint(
  app: FastifyInstance,
  config: Pick<Config, 'AGENT_UPSTREAM_TIMEOUT_MS'>,
  deps: Deps,
  keys: AgentServiceOptions,
): Promise<AgentCallRepository> {
  const repo = createAgentCallRepository(deps.database);
  const service = createAgentService(repo, deps, keys);
  await app.register(agentEndpointRoutes(service, repo, deps, { timeoutMs: config.AGENT_UPSTREAM_TIMEOUT_MS }));
  await app.register(agentCallRoutes(repo, deps));
  return repo;
}
