import { BriefingSchema, type Briefing, type BriefingRequest } from '@exam/domain/cohort';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** POST /api/attempts/briefing (results-service): the exam as this candidate will sit it. The clock does not start. */
export function getBriefing(body: BriefingRequest): Promise<Briefing> {
  return apiRequest(api.briefing, { method: 'POST', body, schema: BriefingSchema });
}

export function useBriefing(request: BriefingRequest) {
  return useQuery({
    queryKey: ['briefing', request],
    queryFn: () => getBriefing(request),
    retry: false,
    // The briefing must say what holds at Start: read it fresh each time the page shows it.
    gcTime: 0,
  });
}
