import { CourseMaterialSchema, type CourseMaterial } from '@exam/domain/exam-ai';
import { useMutation } from '@tanstack/react-query';
import { z } from 'zod';
import { api } from '../../../config/paths.ts';
import { apiRequest } from '../../../lib/api-client.ts';

/** Course materials are pdf, doc, docx or txt (the formats the server extracts text from), several at once. */
export const MATERIAL_ACCEPT = '.pdf,.doc,.docx,.txt';

export function uploadMaterials(files: File[]): Promise<CourseMaterial[]> {
  const body = new FormData();
  for (const file of files) body.append('files', file, file.name);
  return apiRequest(api.materials, {
    method: 'POST',
    body,
    schema: z.object({ materials: z.array(CourseMaterialSchema) }),
  }).then((data) => data.materials);
}

export function useUploadMaterials() {
  return useMutation({ mutationFn: uploadMaterials });
}
