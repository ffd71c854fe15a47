import { createContext, useContext } from 'react';
import { z } from 'zod';
import { api } from './paths.ts';

export const RuntimeConfigSchema = z.object({ creatorOrigin: z.string(), takerOrigin: z.string() });
export type RuntimeConfig = z.infer<typeof RuntimeConfigSchema>;

/** Used when /runtime-config.json cannot be read (a static host without the preset's middleware). */
export function fallbackRuntimeConfig(): RuntimeConfig {
  const origin = window.location.origin;
  return { creatorOrigin: origin, takerOrigin: origin.replace(/:5173$/, ':5174') };
}

/** Fetched once at startup: the origins depend on where the apps are deployed, not on the build. */
export async function loadRuntimeConfig(): Promise<RuntimeConfig> {
  try {
    const response = await fetch(api.runtimeConfig, { headers: { accept: 'application/json' } });
    if (!response.ok) return fallbackRuntimeConfig();
    const parsed = RuntimeConfigSchema.safeParse(await response.json());
    if (!parsed.success) return fallbackRuntimeConfig();
    return {
      creatorOrigin: parsed.data.creatorOrigin.replace(/\/$/, ''),
      takerOrigin: parsed.data.takerOrigin.replace(/\/$/, ''),
    };
  } catch {
    return fallbackRuntimeConfig();
  }
}

export const RuntimeConfigContext = createContext<RuntimeConfig | null>(null);

export function useRuntimeConfig(): RuntimeConfig {
  const config = useContext(RuntimeConfigContext);
  if (!config) throw new Error('useRuntimeConfig needs a RuntimeConfigContext provider');
  return config;
}
