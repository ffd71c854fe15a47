import { toast } from '@exam/ui/toaster';
import { takerPaths } from '../../../config/paths.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { createPreviewToken } from '../api/create-preview-token.ts';
import { i18n } from '../../../i18n/index.ts';

export const PreviewToasts = {
  get popupBlocked() {
    return i18n.t('exams:preview.popupBlocked');
  },
} as const;

/**
 * Opens the taker app's preview of one exam. The tab opens at once, inside the click, so pop-up blockers
 * let it through; it is cut off from this page (no opener) and sent to the preview once the server has
 * issued a preview token. The token rides in the fragment, which no server, log or Referer ever sees; the
 * creator's own session token never leaves this origin.
 */
export async function openPreview(examId: string, takerOrigin: string): Promise<void> {
  const tab = window.open('', '_blank');
  if (!tab) {
    toast.error(PreviewToasts.popupBlocked);
    return;
  }
  tab.opener = null;
  try {
    const { token } = await createPreviewToken(examId);
    tab.location.replace(takerPaths.preview(takerOrigin, examId, token));
  } catch (error) {
    tab.close();
    toast.error(userMessageOf(error));
  }
}
