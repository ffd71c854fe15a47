import { CODING_LANGUAGES } from '@exam/domain/question';
import { WORKSPACE_TYPES } from '@exam/domain/exam';
import { statusItemOf, UnavailableError, type StatusItem } from '@exam/domain/service-status';
import type { EntryResolver } from '../../engine/catalogue.ts';
import type { WorkspaceEngine } from '../../engine/engine.ts';
import type { RunnerEngine } from '../../engine/runner-engine.ts';

/**
 * What the orchestrator adds to its status for the administrators' page: each workspace engine, each coding
 * language's runner image and each workspace type's editor image, with the operator's detail (the socket, the image,
 * the script that builds it). Asked only when an administrator opens the page.
 */
export async function orchestratorStatus(
  engines: readonly WorkspaceEngine[],
  runner: RunnerEngine,
  resolveEntry: EntryResolver,
): Promise<StatusItem[]> {
  const engineReasons = await Promise.all(engines.map((engine) => engine.unavailableReason()));
  const active = engines.find((_engine, i) => !engineReasons[i]);
  const engineItems = engines.map((engine, i) => statusItemOf(`workspace engine: ${engine.kind}`, engineReasons[i]));
  if (!engines.length)
    engineItems.push({
      name: 'workspace engine',
      state: 'failing',
      summary: 'Not configured',
      detail: 'WORKSPACE_ENGINE names no engine',
    });

  const runners = await Promise.all(
    CODING_LANGUAGES.map(async (language) =>
      statusItemOf(`code runner: ${language}`, await runner.unavailableReason(language)),
    ),
  );

  const workspaces = await Promise.all(
    WORKSPACE_TYPES.map(async (workspaceType): Promise<StatusItem> => {
      const name = `workspace: ${workspaceType}`;
      try {
        const entry = resolveEntry(workspaceType);
        if (!active) return { name, state: 'failing', summary: 'No engine to run it', detail: `image ${entry.image}` };
        const reason = await active.entryUnavailableReason(entry);
        return reason
          ? statusItemOf(name, reason)
          : { ...statusItemOf(name, undefined), detail: `image ${entry.image}` };
      } catch (err) {
        if (err instanceof UnavailableError) return statusItemOf(name, { kind: err.kind, detail: err.detail });
        return { name, state: 'failing', summary: 'Could not be checked', detail: (err as Error).message };
      }
    }),
  );
  return [...engineItems, ...runners, ...workspaces];
}
