import { isDeepStrictEqual } from 'node:util';
import { AppError, ErrorCode } from '@exam/domain/errors';
import {
  ProcessSummarySchema,
  type ProcessReceipt,
  type ProcessRecord,
  type ReceiptKeySet,
  type VerifyReceiptResponseSchema,
} from '@exam/domain/timeline';
import type { z } from 'zod';
import type { Deps } from '../../deps.ts';
import type { ReceiptSigner } from './receipt-signer.ts';
import type { ReceiptsRepository } from './receipts.repository.ts';

export const ReceiptMessages = {
  notSubmitted: 'Your receipt is ready once you have submitted the exam.',
  noRecord:
    'This attempt was submitted before the platform recorded how answers were written, so there is no summary to sign.',
} as const;

/** The stored summary as the contract has it (fields a later version added are not part of what was signed). */
const storedSummary = (process: ProcessRecord | null) =>
  process ? ProcessSummarySchema.safeParse(process.summary).data : undefined;

/**
 * The candidate's signed summary of their own process and the creator's check of one. The summary is the one
 * results.process recorded at submit; a result without one (made before operations were recorded) has nothing
 * to summarise from (no operations were kept), so it has no receipt rather than an invented one.
 */
export function createReceiptsService(
  repo: ReceiptsRepository,
  signer: ReceiptSigner,
  /** results.process as the submissions module gives it: computed on the spot while still pending. */
  processOf: (resultId: string) => Promise<ProcessRecord | null | undefined>,
  deps: Pick<Deps, 'clock'>,
) {
  return {
    async receipt(attemptId: string): Promise<ProcessReceipt> {
      const found = await repo.findAttempt(attemptId);
      if (!found) throw new AppError(ErrorCode.NOT_FOUND, 'Attempt not found');
      if (!found.submittedAt || !found.resultId) throw new AppError(ErrorCode.CONFLICT, ReceiptMessages.notSubmitted);
      // Right after the submit the record may still be pending (its job runs after the commit): computed now.
      const summary = storedSummary((await processOf(found.resultId)) ?? null);
      if (!summary) throw new AppError(ErrorCode.NOT_FOUND, ReceiptMessages.noRecord);
      const receipt = await signer.sign(
        { attemptId: found.attemptId, resultId: found.resultId, examId: found.examId, summary },
        deps.clock.now(),
      );
      return { summary, receipt };
    },

    /**
     * Valid when the signature is one of ours and the receipt names this result's attempt. A receipt of another
     * attempt says nothing more: its figures may be another creator's candidate's.
     */
    async verify(
      resultId: string,
      ownerId: string,
      receipt: string,
    ): Promise<z.infer<typeof VerifyReceiptResponseSchema>> {
      const result = await repo.findOwnedResult(resultId, ownerId);
      if (!result) throw new AppError(ErrorCode.NOT_FOUND, 'Result not found');
      const check = await signer.verify(receipt);
      if (!check.ok) return { valid: false, reason: check.reason };
      const { claims } = check;
      if (claims.attemptId !== result.attemptId || claims.resultId !== result.resultId) {
        return { valid: false, reason: 'attempt' };
      }
      const stored = storedSummary((await processOf(result.resultId)) ?? null);
      return {
        valid: true,
        summary: claims.summary,
        matchesRecord: stored !== undefined && isDeepStrictEqual(claims.summary, stored),
        // The platform's own figures beside the receipt's, so the creator sees which differ.
        ...(stored !== undefined && { record: stored }),
      };
    },

    keySet(): Promise<ReceiptKeySet> {
      return signer.keySet();
    },
  };
}
export type ReceiptsService = ReturnType<typeof createReceiptsService>;
