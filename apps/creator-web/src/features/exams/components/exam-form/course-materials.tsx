import type { CourseMaterial } from '@exam/domain/exam-ai';
import { Button } from '@exam/ui/button';
import { Spinner } from '@exam/ui/spinner';
import { toast } from '@exam/ui/toaster';
import { FileText, X } from 'lucide-react';
import { useId, useRef } from 'react';
import { userMessageOf } from '../../../../lib/api-client.ts';
import { MATERIAL_ACCEPT, useUploadMaterials } from '../../api/upload-materials.ts';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../../i18n/index.ts';

function formatSize(bytes: number): string {
  if (bytes < 1024) return i18n.t('common:size.bytes', { size: bytes });
  if (bytes < 1024 * 1024) return i18n.t('common:size.kilobytes', { size: (bytes / 1024).toFixed(1) });
  return i18n.t('common:size.megabytes', { size: (bytes / (1024 * 1024)).toFixed(1) });
}

/** Course materials the assistant may draw on (pdf, doc, docx or txt, several at once: the formats the server extracts text from). */
export function CourseMaterials({
  materials,
  onChange,
}: {
  materials: CourseMaterial[];
  onChange: (materials: CourseMaterial[]) => void;
}) {
  const { t } = useTranslation('editor');
  const upload = useUploadMaterials();
  const inputId = useId();
  const inputRef = useRef<HTMLInputElement>(null);

  const onFiles = (list: FileList | null) => {
    const files = list ? Array.from(list) : [];
    if (files.length === 0) return;
    upload.mutate(files, {
      onSuccess: (added) => {
        onChange([...materials, ...added]);
        toast.success(
          added.length === 1
            ? t('courseMaterials.uploadedOne', { name: added[0]?.name ?? t('courseMaterials.file') })
            : t('courseMaterials.uploadedLengthFiles', { length: added.length }),
        );
      },
      onError: (error) => toast.error(userMessageOf(error)),
      onSettled: () => {
        if (inputRef.current) inputRef.current.value = '';
      },
    });
  };

  return (
    <div className="flex flex-col gap-2">
      <label htmlFor={inputId} className="text-sm font-medium text-ink">
        {t('courseMaterials.courseMaterials')}
      </label>
      <p className="text-xs text-muted">{t('courseMaterials.pdfDocDocxOr')}</p>
      <div className="flex items-center gap-3">
        <input
          ref={inputRef}
          id={inputId}
          type="file"
          multiple
          accept={MATERIAL_ACCEPT}
          disabled={upload.isPending}
          onChange={(event) => onFiles(event.target.files)}
          className="block text-sm text-muted file:mr-3 file:cursor-pointer file:rounded-lg file:border file:border-line file:bg-surface file:px-3 file:py-1.5 file:text-sm file:font-medium file:text-ink hover:file:bg-canvas"
        />
        {upload.isPending && <Spinner label={t('courseMaterials.uploading')} />}
      </div>
      {materials.length > 0 && (
        <ul
          aria-label={t('courseMaterials.uploadedCourseMaterials')}
          className="mt-1 divide-y divide-line rounded-lg border border-line"
        >
          {materials.map((m) => (
            <li key={m.id} className="flex items-center gap-3 px-3 py-2 text-sm">
              <FileText aria-hidden className="h-4 w-4 text-muted" />
              <span className="min-w-0 flex-1 truncate text-ink">{m.name}</span>
              <span className="text-xs text-muted">{formatSize(m.size)}</span>
              <Button
                variant="ghost"
                size="sm"
                aria-label={t('courseMaterials.removeName', { name: m.name })}
                onClick={() => onChange(materials.filter((x) => x.id !== m.id))}
              >
                <X aria-hidden className="h-4 w-4" /> {t('courseMaterials.remove')}
              </Button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
