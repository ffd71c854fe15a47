import { Button } from '@exam/ui/button';
import { cn } from '@exam/ui/lib/cn';
import { toast } from '@exam/ui/toaster';
import { AlertCircle, CheckCircle2, FileText, Loader2, Upload } from 'lucide-react';
import { useEffect, useId, useRef, useState, type ChangeEvent, type DragEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { AnswerFileStatus } from '../hooks/use-answer-files.ts';
import { formatFileSize } from '../../../i18n/format.ts';
import { fileNameOf } from '../lib/file-name.ts';
import { FileTooLargeError } from '../lib/uploads.ts';

type FileAnswerProps = {
  questionIndex: number;
  answer: string;
  /** Where the file is; undefined for a file the server already held when the page opened. */
  status: AnswerFileStatus | undefined;
  /** The largest file the server takes, shown under the drop zone. */
  maxBytes: number;
  /** Keeps the file (on this device first, then on the server); rejects with the reason it was refused. */
  onChoose: (file: File) => Promise<void>;
  /** Forgets the file: the question is unanswered again. */
  onRemove: () => Promise<void>;
};

/**
 * A file-upload answer (recorded as 'File: {filename}'): a drop zone that also opens the file picker (the
 * real input is visually hidden but is what the label, the keyboard and assistive technology reach), then
 * the chosen file's name, size and state with Replace and Remove. The answer shows as soon as the file is
 * kept on this device; the upload follows, also after the network returns or a reload.
 */
export function FileAnswer({ questionIndex, answer, status, maxBytes, onChoose, onRemove }: FileAnswerProps) {
  const { t, i18n } = useTranslation('questions');
  const inputId = useId();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState<'keeping' | 'removing' | null>(null);
  const [refusal, setRefusal] = useState<string | null>(null);
  const [notice, setNotice] = useState('');
  const [dragging, setDragging] = useState(false);
  // Remove disappears with the file: focus goes to the input (enabled again) rather than to the page.
  const refocus = useRef(false);
  useEffect(() => {
    if (busy !== null || !refocus.current) return;
    refocus.current = false;
    input.current?.focus();
  }, [busy]);
  const locale = i18n.resolvedLanguage ?? 'en';
  const fileName = busy === 'keeping' ? null : fileNameOf(answer);
  const refusalId = `file-refusal-${questionIndex}`;
  const hintId = `file-hint-${questionIndex}`;

  async function keep(file: File) {
    setBusy('keeping');
    setRefusal(null);
    setNotice('');
    try {
      await onChoose(file);
    } catch (error) {
      if (!(error instanceof FileTooLargeError)) console.error('Could not keep the answer file', error);
      const message =
        error instanceof FileTooLargeError
          ? t('file.tooLarge', { size: formatFileSize(error.maxBytes, locale) })
          : t('file.couldNotKeep');
      setRefusal(message);
      toast.error(message);
    } finally {
      setBusy(null);
    }
  }

  async function remove() {
    setBusy('removing');
    setRefusal(null);
    try {
      await onRemove();
      setNotice(t('file.removed'));
      refocus.current = true;
    } catch (error) {
      console.error('Could not remove the answer file', error);
      setRefusal(t('file.couldNotRemove'));
    } finally {
      setBusy(null);
    }
  }

  function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (file) void keep(file);
  }

  function onDrop(event: DragEvent<HTMLDivElement>) {
    event.preventDefault();
    setDragging(false);
    if (busy) return;
    const files = event.dataTransfer.files;
    if (files.length > 1) {
      setRefusal(t('file.oneFile'));
      return;
    }
    const file = files[0];
    if (file) void keep(file);
  }

  const allowDrop = (event: DragEvent<HTMLDivElement>) => {
    if (!event.dataTransfer.types.includes('Files')) return;
    event.preventDefault();
    event.dataTransfer.dropEffect = 'copy';
    setDragging(true);
  };

  const state = status?.state ?? 'saved';
  // A file the server refused for good leaves the question unanswered; its reason stays until the next try.
  const failure = refusal ?? (fileName === null && state === 'failed' ? status?.error : undefined);
  return (
    <div className="flex flex-col gap-2">
      <div
        data-testid={`file-drop-${questionIndex}`}
        onDragEnter={allowDrop}
        onDragOver={allowDrop}
        onDragLeave={(event) => {
          if (!event.currentTarget.contains(event.relatedTarget as Node | null)) setDragging(false);
        }}
        onDrop={onDrop}
        className={cn(
          // The real input is invisible: its keyboard focus shows as a ring around the whole zone.
          'relative rounded-lg border-2 border-dashed border-line transition-colors has-[input:focus-visible]:outline-2 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-brand-500',
          dragging ? 'border-brand-500 bg-brand-50' : 'bg-canvas',
          fileName ? 'p-3' : 'p-5',
        )}
      >
        <input
          ref={input}
          id={inputId}
          type="file"
          className="sr-only"
          aria-label={t('file.inputLabel', { number: questionIndex + 1 })}
          aria-describedby={failure ? `${hintId} ${refusalId}` : hintId}
          disabled={busy !== null}
          onChange={onChange}
        />
        {fileName ? (
          <div className="flex flex-wrap items-center gap-3" data-testid={`file-answer-${questionIndex}`}>
            <FileText aria-hidden className="h-5 w-5 shrink-0 text-muted" />
            <div className="min-w-0 flex-1">
              <p className="truncate text-sm font-medium text-ink" data-testid={`file-name-${questionIndex}`}>
                {fileName}
              </p>
              <p className="flex items-center gap-1 text-xs text-muted" role="status">
                {status?.size !== undefined && <span>{formatFileSize(status.size, locale)} · </span>}
                <FileState state={state} />
              </p>
            </div>
            <div className="flex shrink-0 gap-2">
              <Button
                size="sm"
                variant="secondary"
                aria-label={t('file.replaceNamed', { name: fileName })}
                disabled={busy !== null}
                onClick={() => input.current?.click()}
              >
                {t('file.replace')}
              </Button>
              <Button
                size="sm"
                variant="ghost"
                aria-label={t('file.removeNamed', { name: fileName })}
                disabled={busy !== null}
                onClick={() => void remove()}
              >
                {t('file.remove')}
              </Button>
            </div>
          </div>
        ) : (
          <label
            htmlFor={inputId}
            className="flex cursor-pointer flex-col items-center gap-1 rounded-md text-center text-sm text-muted"
          >
            {busy === 'keeping' ? (
              <Loader2 aria-hidden className="h-6 w-6 animate-spin text-muted motion-reduce:animate-none" />
            ) : (
              <Upload aria-hidden className="h-6 w-6 text-muted" />
            )}
            <span>
              <span className="font-medium text-brand-700 underline underline-offset-2">{t('file.choose')}</span>{' '}
              {dragging ? t('file.release') : t('file.orDrop')}
            </span>
          </label>
        )}
        <p id={hintId} className={cn('text-xs text-muted', fileName ? 'mt-2' : 'mt-1 text-center')}>
          {fileName && <span>{dragging ? t('file.release') : t('file.dropToReplace')} · </span>}
          {t('file.maxSize', { size: formatFileSize(maxBytes, locale) })}
        </p>
      </div>
      {busy === 'keeping' && (
        <p role="status" className="text-sm text-muted">
          {t('file.keeping')}
        </p>
      )}
      {failure && (
        <p id={refusalId} role="alert" className="flex items-center gap-1 text-sm text-red-700">
          <AlertCircle aria-hidden className="h-4 w-4 shrink-0" />
          {failure}
        </p>
      )}
      <p className="sr-only" aria-live="polite">
        {notice}
      </p>
    </div>
  );
}

function FileState({ state }: { state: AnswerFileStatus['state'] }) {
  const { t } = useTranslation('questions');
  if (state === 'uploading')
    return (
      <span className="inline-flex items-center gap-1">
        <Loader2 aria-hidden className="h-3 w-3 animate-spin motion-reduce:animate-none" />
        {t('file.uploading')}
      </span>
    );
  if (state === 'failed')
    return (
      <span className="inline-flex items-center gap-1 text-red-700">
        <AlertCircle aria-hidden className="h-3 w-3" />
        {t('file.failed')}
      </span>
    );
  return (
    <span className="inline-flex items-center gap-1 text-green-700">
      <CheckCircle2 aria-hidden className="h-3 w-3" />
      {t('file.saved')}
    </span>
  );
}
