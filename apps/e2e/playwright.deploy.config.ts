import dns from 'node:dns';
import { defineConfig } from '@playwright/test';
import { journeyDefaults } from './browser-options.ts';

/**
 * The creator and candidate journeys against the compose deployment (infra/compose.yaml) that
 * scripts/test-deploy.ts starts (`pnpm test:deploy`): nginx on 127.0.0.1, one virtual host per origin,
 * E2E_CREATOR_ORIGIN and E2E_TAKER_ORIGIN naming them (http://creator.localhost:PORT, http://exam.localhost:PORT).
 * Starts no stack of its own. Chromium resolves every *.localhost name to the loopback address by itself (and
 * treats the origins as secure contexts, as a real deployment's HTTPS would be); Node's resolver does not, so
 * the API calls of the journeys (Playwright's request context, run in this process) get the same rule here.
 */
const isLocalhostName = (hostname: string) => hostname.endsWith('.localhost');
const lookup = dns.lookup;
const lookupPromise = dns.promises.lookup;
dns.lookup = ((hostname: string, ...rest: unknown[]) =>
  // @ts-expect-error -- forwards whichever of lookup's overloads the caller used
  lookup(isLocalhostName(hostname) ? '127.0.0.1' : hostname, ...rest)) as typeof dns.lookup;
dns.promises.lookup = ((hostname: string, options?: dns.LookupOptions) =>
  lookupPromise(isLocalhostName(hostname) ? '127.0.0.1' : hostname, options ?? {})) as typeof dns.promises.lookup;

export default defineConfig({
  ...journeyDefaults,
  testDir: '.',
  // Authoring (creator), a candidate's sitting and submission (candidate), grading (grading), and a replica of
  // exam-service and of results-service killed mid-attempt (deploy/replica-kill).
  testMatch: ['tests/creator.spec.ts', 'tests/candidate.spec.ts', 'tests/grading.spec.ts', 'deploy/*.spec.ts'],
  use: { ...journeyDefaults.use, baseURL: process.env.E2E_CREATOR_ORIGIN },
});
