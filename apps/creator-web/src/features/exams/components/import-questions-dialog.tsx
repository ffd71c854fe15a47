import type { QuestionType } from '@exam/domain/question';
import { IMPORT_FORMATS, type ImportFormat, type ImportPreview, type NotImported } from '@exam/domain/interchange';
import { Button } from '@exam/ui/button';
import { Dialog } from '@exam/ui/dialog';
import { toast } from '@exam/ui/toaster';
import { Upload } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { guessFormat, useImportQuestions, usePreviewImport } from '../api/exchange-questions.ts';

const FORMAT_KEYS = {
  qti: 'interchange.formatQti',
  'moodle-xml': 'interchange.formatMoodle',
  gift: 'interchange.formatGift',
} as const satisfies Record<ImportFormat, string>;
const TYPE_KEYS = {
  mcq: 'interchange.typeMcq',
  'short-answer': 'interchange.typeShortAnswer',
  'file-upload': 'interchange.typeFileUpload',
  coding: 'interchange.typeCoding',
  essay: 'interchange.typeEssay',
  'true-false': 'interchange.typeTrueFalse',
  ordering: 'interchange.typeOrdering',
  matching: 'interchange.typeMatching',
  'fill-blanks': 'interchange.typeFillBlanks',
  numeric: 'interchange.typeNumeric',
  calculated: 'interchange.typeCalculated',
} as const satisfies Record<QuestionType, string>;

/** A question's warnings together (a reader lists one warning per thing lost), in the file's order. */
function groupWarnings(warnings: readonly NotImported[]): Array<{ ref: string; title: string; reasons: string[] }> {
  const byRef = new Map<string, { ref: string; title: string; reasons: string[] }>();
  for (const w of warnings) {
    const entry = byRef.get(w.ref) ?? { ref: w.ref, title: w.title, reasons: [] };
    if (!entry.reasons.includes(w.reason)) entry.reasons.push(w.reason);
    byRef.set(w.ref, entry);
  }
  return [...byRef.values()];
}

/**
 * Import questions from a QTI package, a Moodle XML export or a GIFT file: choose the file and its format,
 * see what would be imported (with the shared passages the file brings), what is imported but loses something
 * and what cannot be imported (each with the reason), then confirm. Without `examId` the
 * questions become a new draft exam; with it they are added to that draft.
 */
export function ImportQuestionsDialog({
  open,
  onClose,
  examId,
}: {
  open: boolean;
  onClose: () => void;
  examId?: string;
}) {
  const { t } = useTranslation('exams');
  const navigate = useNavigate();
  const previewImport = usePreviewImport();
  const importQuestions = useImportQuestions();
  const [file, setFile] = useState<File | null>(null);
  const [format, setFormat] = useState<ImportFormat>('qti');
  const [preview, setPreview] = useState<ImportPreview | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reset = () => {
    setFile(null);
    setPreview(null);
    setError(null);
  };
  const close = () => {
    reset();
    onClose();
  };
  const choose = (chosen: File | undefined) => {
    setPreview(null);
    setError(null);
    setFile(chosen ?? null);
    const guessed = chosen ? guessFormat(chosen.name) : null;
    if (guessed) setFormat(guessed);
  };
  const runPreview = () => {
    if (!file) return;
    setError(null);
    previewImport.mutate(
      { file, format },
      { onSuccess: setPreview, onError: (e) => setError(userMessageOf(e)), onSettled: () => undefined },
    );
  };
  const confirm = () => {
    if (!file) return;
    importQuestions.mutate(
      { file, format, examId },
      {
        onSuccess: (result) => {
          toast.success(t('interchange.imported', { count: result.questions.length }));
          close();
          if (!examId) void navigate(paths.editExam(result.exam.id, 'draft'));
        },
        onError: (e) => setError(userMessageOf(e)),
      },
    );
  };

  const count = preview?.questions.length ?? 0;
  const passages = preview?.passages ?? [];
  const passageTitles = new Map(passages.map((p) => [p.id, p.title.trim()]));
  const lossesByQuestion = groupWarnings(preview?.warnings ?? []);
  return (
    <Dialog
      open={open}
      onOpenChange={(next) => !next && close()}
      title={t('interchange.importQuestions')}
      description={examId ? t('interchange.addsToDraft') : t('interchange.createsDraft')}
      className="w-[min(92vw,40rem)]"
      footer={
        <>
          <Button variant="secondary" onClick={close}>
            {t('interchange.cancel')}
          </Button>
          {preview ? (
            <Button onClick={confirm} disabled={count === 0 || importQuestions.isPending}>
              {t('interchange.importCount', { count })}
            </Button>
          ) : (
            <Button onClick={runPreview} disabled={!file || previewImport.isPending}>
              {previewImport.isPending ? t('interchange.reading') : t('interchange.preview')}
            </Button>
          )}
        </>
      }
    >
      <div className="flex flex-col gap-4">
        <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium text-brand-600">
          <Upload aria-hidden className="h-4 w-4" /> {file ? file.name : t('interchange.chooseFile')}
          <input
            type="file"
            accept=".zip,.xml,.txt,.gift"
            className="sr-only"
            aria-label={t('interchange.file')}
            onChange={(e) => choose(e.target.files?.[0])}
          />
        </label>
        <fieldset className="flex flex-col gap-1">
          <legend className="mb-1 text-sm font-medium text-ink">{t('interchange.format')}</legend>
          {IMPORT_FORMATS.map((f) => (
            <label key={f} className="inline-flex items-center gap-2 text-sm text-ink">
              <input
                type="radio"
                name="import-format"
                value={f}
                checked={format === f}
                onChange={() => {
                  setFormat(f);
                  setPreview(null);
                }}
              />
              {t(FORMAT_KEYS[f])}
            </label>
          ))}
        </fieldset>
        {error && (
          <p role="alert" className="text-sm text-danger">
            {error}
          </p>
        )}
        {preview && (
          <div className="flex max-h-80 flex-col gap-3 overflow-y-auto">
            <section aria-label={t('interchange.toImport')}>
              <h3 className="text-sm font-semibold text-ink">{t('interchange.willImport', { count })}</h3>
              <ul className="mt-1 list-disc pl-5 text-sm">
                {preview.questions.map((q) => (
                  <li key={q.id}>
                    {q.title} <span className="text-muted">({t(TYPE_KEYS[q.type])})</span>
                    {q.passageId && passageTitles.has(q.passageId) && (
                      <span className="text-muted">
                        {' '}
                        {t('interchange.onPassage', {
                          title: passageTitles.get(q.passageId) || t('interchange.untitledPassage'),
                        })}
                      </span>
                    )}
                  </li>
                ))}
              </ul>
            </section>
            {passages.length > 0 && (
              <section aria-label={t('interchange.passagesRegion')}>
                <h3 className="text-sm font-semibold text-ink">
                  {t('interchange.passages', {
                    count: passages.length,
                    titles: passages.map((p) => p.title.trim() || t('interchange.untitledPassage')).join(', '),
                  })}
                </h3>
              </section>
            )}
            {lossesByQuestion.length > 0 && (
              <section aria-label={t('interchange.withLosses')}>
                <h3 className="text-sm font-semibold text-ink">
                  {t('interchange.loseSomething', { count: lossesByQuestion.length })}
                </h3>
                <ul className="mt-1 list-disc pl-5 text-sm">
                  {lossesByQuestion.map(({ ref, title, reasons }) => (
                    <li key={ref}>
                      <span className="font-medium">{title}</span>
                      <ul className="list-[circle] pl-5">
                        {reasons.map((reason) => (
                          <li key={reason}>{reason}</li>
                        ))}
                      </ul>
                    </li>
                  ))}
                </ul>
              </section>
            )}
            {preview.notImported.length > 0 && (
              <section aria-label={t('interchange.notImportable')}>
                <h3 className="text-sm font-semibold text-ink">
                  {t('interchange.cannotImport', { count: preview.notImported.length })}
                </h3>
                <ul className="mt-1 list-disc pl-5 text-sm">
                  {preview.notImported.map((n) => (
                    <li key={n.ref}>
                      <span className="font-medium">{n.title}</span>: {n.reason}
                    </li>
                  ))}
                </ul>
              </section>
            )}
          </div>
        )}
      </div>
    </Dialog>
  );
}
