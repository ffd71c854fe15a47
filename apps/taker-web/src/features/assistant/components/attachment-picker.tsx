import { Button } from '@exam/ui/button';
import { Paperclip, X } from 'lucide-react';
import { useRef } from 'react';
import { useTranslation } from 'react-i18next';

/** The attach button (any file type, several at once); shown only when uploadDocuments is on. */
export function AttachButton({ disabled, onPick }: { disabled: boolean; onPick: (files: File[]) => void }) {
  const { t } = useTranslation('assistant');
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <Button
        size="icon"
        variant="ghost"
        aria-label={t('attachFiles')}
        disabled={disabled}
        onClick={() => input.current?.click()}
      >
        <Paperclip aria-hidden className="h-4 w-4" />
      </Button>
      <input
        ref={input}
        type="file"
        multiple
        hidden
        aria-label={t('chooseFiles')}
        data-testid="assistant-file-input"
        onChange={(event) => {
          onPick(Array.from(event.target.files ?? []));
          // Picking the same file again after removing it must fire a change.
          event.target.value = '';
        }}
      />
    </>
  );
}

/** The files waiting to be sent, each removable, and why any were skipped. */
export function AttachmentChips({
  files,
  notices,
  onRemove,
}: {
  files: File[];
  notices: string[];
  onRemove: (index: number) => void;
}) {
  const { t } = useTranslation('assistant');
  if (files.length === 0 && notices.length === 0) return null;
  return (
    <div className="flex flex-col gap-1">
      {files.length > 0 && (
        <ul aria-label={t('filesToSend')} className="flex flex-wrap gap-1.5">
          {files.map((file, index) => (
            <li
              key={`${file.name}-${index}`}
              className="flex items-center gap-1 rounded-full border border-line bg-canvas py-0.5 pr-0.5 pl-2 text-xs text-ink"
            >
              <Paperclip aria-hidden className="h-3 w-3 text-muted" />
              <span className="max-w-40 truncate">{file.name}</span>
              <button
                type="button"
                aria-label={t('removeFile', { name: file.name })}
                className="rounded-full p-0.5 text-muted hover:bg-line hover:text-ink"
                onClick={() => onRemove(index)}
              >
                <X aria-hidden className="h-3 w-3" />
              </button>
            </li>
          ))}
        </ul>
      )}
      {notices.map((notice) => (
        <p key={notice} role="alert" className="text-xs text-danger">
          {notice}
        </p>
      ))}
    </div>
  );
}
