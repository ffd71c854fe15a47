import { useMutation } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { fetchDownload, saveBlob } from '../../../lib/download.ts';
import { i18n } from '../../../i18n/index.ts';

/** GET /api/results/{id}/files/{questionIndex}: a candidate's uploaded answer, saved under its own name. */
export async function downloadAnswerFile({
  resultId,
  questionIndex,
  fileName,
}: {
  resultId: string;
  questionIndex: number;
  fileName: string;
}): Promise<void> {
  const response = await fetchDownload(api.resultFile(resultId, questionIndex), {
    notFound: i18n.t('grading:download.fileNotFound'),
    failed: i18n.t('grading:download.fileFailed'),
  });
  saveBlob(await response.blob(), fileName);
}

export function useDownloadAnswerFile() {
  return useMutation({ mutationFn: downloadAnswerFile });
}
