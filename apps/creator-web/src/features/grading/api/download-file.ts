import { useMutation } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { fetchDownload, saveBlob } from '../../../lib/download.ts';

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
    notFound: 'The file was not found.',
    failed: 'The file could not be downloaded. Please try again.',
  });
  saveBlob(await response.blob(), fileName);
}

export function useDownloadAnswerFile() {
  return useMutation({ mutationFn: downloadAnswerFile });
}
