import type { FastifyInstance } from 'fastify';
import type { LaunchSpec, SimulatorState } from './state.ts';

/**
 * LTI Advantage services of the simulated LMS: the OAuth 2 token endpoint, Assignment and Grade Services (line
 * items, scores) and Names and Role Provisioning. createLmsSimulator registers this plugin with the shared state.
 */
export async function advantagePlugin(_app: FastifyInstance, _opts: { state: SimulatorState }): Promise<void> {}

/** Claims the services add to a resource-link launch's id_token (the AGS endpoint, the NRPS service). */
export function advantageClaims(_state: SimulatorState, _launch: LaunchSpec): Record<string, unknown> {
  return {};
}
