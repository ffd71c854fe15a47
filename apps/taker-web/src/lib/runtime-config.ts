import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../config/paths.ts';
import { apiRequest } from './api-client.ts';

const RuntimeConfigSchema = z.object({ creatorOrigin: z.string(), takerOrigin: z.string() });
export type RuntimeConfig = z.infer<typeof RuntimeConfigSchema>;

/** Served by the web server (web-config's runtime-config plugin); falls back to this origin. */
export function useRuntimeConfig(): RuntimeConfig | undefined {
  const query = useQuery({
    queryKey: ['runtime-config'],
    queryFn: async () => {
      try {
        return await apiRequest(api.runtimeConfig, { schema: RuntimeConfigSchema });
      } catch {
        return { creatorOrigin: window.location.origin, takerOrigin: window.location.origin };
      }
    },
    staleTime: Infinity,
  });
  return query.data;
}
