import { PlatformStatusSchema, type PlatformStatus } from '@exam/domain/service-status';
import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

const AdminMeSchema = z.object({ admin: z.boolean() });

/** GET /api/admin/me (exam-service): whether the signed-in creator is one of the platform's administrators. */
export function getAdminMe(): Promise<{ admin: boolean }> {
  return apiRequest(api.adminMe, { schema: AdminMeSchema });
}

/** Asked once per sign-in: the list of administrators (ADMIN_EMAILS) changes only when the platform restarts. */
export function useIsPlatformAdmin(): boolean {
  const me = useQuery({ queryKey: ['admin', 'me'], queryFn: getAdminMe, staleTime: Infinity });
  return me.data?.admin === true;
}

/** GET /api/admin/status (exam-service, administrators only; 403 for anyone else): every service's checks. */
export function getPlatformStatus(): Promise<PlatformStatus> {
  return apiRequest(api.adminStatus, { schema: PlatformStatusSchema });
}

export function usePlatformStatus() {
  // Never cached across visits: the page is opened to see the platform as it is now.
  return useQuery({ queryKey: ['admin', 'status'], queryFn: getPlatformStatus, staleTime: 0, gcTime: 0 });
}
