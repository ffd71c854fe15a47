import { readUploadResponse } from '@exam/domain/candidate-views';
import { api } from '../../../config/paths.ts';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';
import { handleSendFailure, type SendContext } from './send-context.ts';
import { listUploads, resendAfterLateUpload, settleUpload } from './uploads.ts';
import { i18n } from '../../../i18n/index.ts';

/** Uploads every kept answer file; false when a retryable failure stopped the run. */
export async function sendUploads(ctx: SendContext): Promise<boolean> {
  const { db, attemptId, token } = ctx;
  for (const upload of await listUploads(db, attemptId)) {
    if (ctx.isClosed()) return true;
    try {
      const body = new FormData();
      body.append('file', new Blob([upload.bytes], { type: upload.mimeType }), upload.fileName);
      const stored = readUploadResponse(
        await apiRequest(api.file(attemptId, upload.questionIndex), { method: 'POST', token, body }),
      );
      if (await settleUpload(db, upload, stored.answer)) ctx.onUploadSettled?.(upload.questionIndex, stored.answer);
      // Removed while it was on its way: the removal is sent again (by the drain that removal asked for),
      // above the seq the upload took on the server.
      else await resendAfterLateUpload(db, upload);
    } catch (error) {
      const kind = handleSendFailure(ctx, error);
      if (kind === 'closed') return true;
      if (kind === 'retry') return false;
      // Refused for good (too large for the server, not a file question): the candidate must choose again.
      console.error('Answer file rejected by the server', upload.questionIndex, error);
      const message = error instanceof ApiError ? error.userMessage : i18n.t('exam:sync.uploadFailed');
      if (await settleUpload(db, upload, '')) ctx.onUploadSettled?.(upload.questionIndex, '', message);
    }
  }
  return true;
}
