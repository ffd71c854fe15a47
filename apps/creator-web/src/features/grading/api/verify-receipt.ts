import { VerifyReceiptResponseSchema } from '@exam/domain/timeline';
import { useMutation } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

export type VerifyReceiptResponse = z.infer<typeof VerifyReceiptResponseSchema>;

/** POST /api/results/{id}/receipt/verify: whether a candidate's receipt is this platform's, for this attempt. */
export function verifyReceipt(resultId: string, receipt: string): Promise<VerifyReceiptResponse> {
  return apiRequest(api.resultReceiptVerify(resultId), {
    method: 'POST',
    body: { receipt },
    schema: VerifyReceiptResponseSchema,
  });
}

export function useVerifyReceipt(resultId: string) {
  return useMutation({ mutationFn: (receipt: string) => verifyReceipt(resultId, receipt) });
}
