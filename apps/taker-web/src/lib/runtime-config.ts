import { useQuery } from '@tanstack/react-query';
import { api } from '../config/paths.ts';

/** Origins of the two apps (GET /runtime-config.json, served by web-config's runtime-config plugin). */
export type RuntimeConfig = { creatorOrigin: string; takerOrigin: string };

const isOrigin = (value: unknown): value is string => typeof value === 'string' && value.length > 0;

/**
 * Read without zod on purpose: the landing page needs it and should not pull the schema library into
 * the first chunk. Falls back to this page's origin.
 */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  const fallback = { creatorOrigin: window.location.origin, takerOrigin: window.location.origin };
  try {
    const response = await fetch(new URL(api.runtimeConfig, window.location.origin));
    const body = (await response.json()) as Partial<Record<keyof RuntimeConfig, unknown>>;
    return {
      creatorOrigin: isOrigin(body.creatorOrigin) ? body.creatorOrigin : fallback.creatorOrigin,
      takerOrigin: isOrigin(body.takerOrigin) ? body.takerOrigin : fallback.takerOrigin,
    };
  } catch {
    return fallback;
  }
}

export function useRuntimeConfig(): RuntimeConfig | undefined {
  return useQuery({ queryKey: ['runtime-config'], queryFn: loadRuntimeConfig, staleTime: Infinity }).data;
}
