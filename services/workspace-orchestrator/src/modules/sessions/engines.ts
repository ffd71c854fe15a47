import { workspaceUnavailableError, type Unavailable } from '@exam/domain/service-status';
import type { WorkspaceRow } from '../../db/schema.ts';
import type { WorkspaceEngine } from '../../engine/engine.ts';

/** Which engine runs a new workspace (the first that can, in the configured order) and which runs an existing one. */
export function createEngineChoice(engines: readonly WorkspaceEngine[]) {
  return {
    /** The first engine that can run workspaces now, or 503 with every engine's reason. */
    async activeEngine(): Promise<WorkspaceEngine> {
      const reasons: Unavailable[] = [];
      for (const engine of engines) {
        const reason = await engine.unavailableReason();
        if (!reason) return engine;
        reasons.push(reason);
      }
      if (!reasons.length)
        throw workspaceUnavailableError({
          kind: 'not-configured',
          detail: 'no Docker engine or local code-server is configured',
        });
      // The first engine's kind speaks for them all (it is the one the operator chose first); every detail is kept.
      throw workspaceUnavailableError({ kind: reasons[0]!.kind, detail: reasons.map((r) => r.detail).join('; ') });
    },

    /**
     * Whether a session or volume is on this orchestrator's host: its engine is configured here and names
     * the host it was recorded with (no host recorded: yes). Undefined when the engine cannot say now.
     */
    async isOnThisHost(row: { backend: string; host: string | null }): Promise<boolean | undefined> {
      const engine = engines.find((e) => e.kind === row.backend);
      if (!engine) return false;
      if (row.host === null) return true;
      try {
        return (await engine.hostId()) === row.host;
      } catch {
        return undefined;
      }
    },

    /** The engine a session was started on, or 503 when that backend is not configured any more. */
    engineOf(row: WorkspaceRow): WorkspaceEngine {
      const engine = engines.find((e) => e.kind === row.backend);
      if (!engine)
        throw workspaceUnavailableError({
          kind: 'not-configured',
          detail: `the ${row.backend} backend of this session is not configured`,
        });
      return engine;
    },
  };
}
export type EngineChoice = ReturnType<typeof createEngineChoice>;
