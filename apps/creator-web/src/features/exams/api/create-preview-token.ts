import { PreviewTokenResponseSchema, type PreviewTokenResponse } from '@exam/domain/public-exam';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** Asks exam-service, with the creator's session, for a short-lived read-only token for one exam's preview. */
export function createPreviewToken(examId: string): Promise<PreviewTokenResponse> {
  return apiRequest(api.previewToken(examId), { method: 'POST', schema: PreviewTokenResponseSchema });
}
