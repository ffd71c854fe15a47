import { toast } from '@exam/ui/toaster';
import { i18n } from '../../../i18n/index.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { downloadExamQti } from '../api/exchange-questions.ts';

/** Downloads an exam as a QTI package and says so (or why not) in a toast. */
export async function exportQtiWithToast(examId: string): Promise<void> {
  try {
    const fileName = await downloadExamQti(examId);
    toast.success(i18n.t('exams:interchange.exported', { fileName }));
  } catch (error) {
    toast.error(userMessageOf(error));
  }
}
