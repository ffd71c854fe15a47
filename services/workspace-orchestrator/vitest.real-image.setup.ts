import { readFileSync } from 'node:fs';
import type { TestProject } from 'vitest/node';
import { dockerClient } from './src/engine/docker-client.ts';
import { setup as startEngine, teardown } from './vitest.global-setup.ts';

export { teardown };

const catalogue = JSON.parse(
  readFileSync(new URL('../../infra/workspaces/catalogue.json', import.meta.url), 'utf8'),
) as { types: Record<string, { image: string }> };
const banner = (lines: string[]) =>
  `\n${'!'.repeat(78)}\n${lines.map((l) => `!! ${l}`).join('\n')}\n${'!'.repeat(78)}\n`;

/**
 * The shared engine setup, then the real workspace images must be on that engine: the run stops here,
 * before any test, when one is missing. WORKSPACE_TESTS=skip does not apply to this suite.
 */
export async function setup(project: TestProject) {
  if (process.env.WORKSPACE_TESTS === 'skip')
    throw new Error(banner(['test:real-image cannot be skipped; unset WORKSPACE_TESTS to run it.']));
  await startEngine(project);
  const socketPath = project.getProvidedContext().dockerSocket!;
  const docker = dockerClient(socketPath);
  const missing: string[] = [];
  for (const { image } of Object.values(catalogue.types)) {
    if (
      !(await docker
        .getImage(image)
        .inspect()
        .then(
          () => true,
          () => false,
        ))
    )
      missing.push(image);
  }
  if (!missing.length) return;
  await teardown();
  throw new Error(
    banner([
      `Not built on the engine at ${socketPath}: ${missing.join(', ')}.`,
      'Build the real workspace images first (about 5 minutes for all four):',
      `  DOCKER_HOST=unix://${socketPath} scripts/build-workspace-images.sh`,
    ]),
  );
}
