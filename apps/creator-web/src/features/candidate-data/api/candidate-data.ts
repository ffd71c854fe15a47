import { DataErasureEnvelopeSchema, DataErasureListSchema, type DataErasure } from '@exam/domain/privacy';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../config/paths.ts';
import { i18n } from '../../../i18n/index.ts';
import { apiRequest } from '../../../lib/api-client.ts';
import { fetchDownload, saveBlob } from '../../../lib/download.ts';

export const erasureKeys = { exam: (examId: string) => ['erasures', examId] as const };

/** GET /api/exams/{examId}/erasures: the exam's erasure records, newest first. */
export const erasuresQuery = (examId: string) =>
  queryOptions({
    queryKey: erasureKeys.exam(examId),
    queryFn: ({ signal }) => apiRequest(api.examErasures(examId), { schema: DataErasureListSchema, signal }),
    // A pending erasure is retried by the server's job: look again now and then while one is pending.
    refetchInterval: (query) => (query.state.data?.erasures.some((e) => e.status === 'pending') ? 30_000 : false),
  });

export const useErasures = (examId: string) => useQuery(erasuresQuery(examId));

/** POST /api/exams/{examId}/candidates/erase. */
export function useEraseCandidate(examId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (candidateId: string): Promise<DataErasure> =>
      (
        await apiRequest(api.candidateErase(examId), {
          method: 'POST',
          body: { candidateId },
          schema: DataErasureEnvelopeSchema,
        })
      ).erasure,
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: erasureKeys.exam(examId) });
      // The candidate's results are gone from every list and from insights.
      void queryClient.invalidateQueries();
    },
  });
}

/** GET /api/exams/{examId}/candidates/export?candidateId=…, saved as a ZIP. */
export function useExportCandidate(examId: string) {
  return useMutation({
    mutationFn: async (candidateId: string) => {
      const response = await fetchDownload(
        api.candidateExport(examId, candidateId),
        {
          notFound: i18n.t('results:candidateData.examNotFound'),
          failed: i18n.t('results:candidateData.exportFailed'),
        },
        'application/zip',
      );
      const extended = /filename\*=UTF-8''([^;]+)/i.exec(response.headers.get('content-disposition') ?? '');
      const fileName = extended?.[1] ? decodeURIComponent(extended[1]) : 'candidate-data.zip';
      saveBlob(await response.blob(), fileName);
      return fileName;
    },
  });
}
