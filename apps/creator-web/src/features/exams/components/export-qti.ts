import { toast } from '@exam/ui/toaster';
import { i18n } from '../../../i18n/index.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { downloadExamMoodleXml, downloadExamQti } from '../api/exchange-questions.ts';

/** Downloads an exam as a QTI package and says so (or why not) in a toast. */
export async function exportQtiWithToast(examId: string): Promise<void> {
  try {
    const fileName = await downloadExamQti(examId);
    toast.success(i18n.t('exams:interchange.exported', { fileName }));
  } catch (error) {
    toast.error(userMessageOf(error));
  }
}

/** Downloads an exam's questions as Moodle XML; the toast says how many things Moodle cannot hold, if any. */
export async function exportMoodleXmlWithToast(examId: string): Promise<void> {
  try {
    const { fileName, losses } = await downloadExamMoodleXml(examId);
    if (losses === 0) toast.success(i18n.t('exams:interchange.exported', { fileName }));
    else toast.warning(i18n.t('exams:interchange.exportedWithLosses', { fileName, count: losses }));
  } catch (error) {
    toast.error(userMessageOf(error));
  }
}
