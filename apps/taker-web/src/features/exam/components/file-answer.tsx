import { toast } from '@exam/ui/toaster';
import { useState, type ChangeEvent } from 'react';

type FileAnswerProps = {
  questionIndex: number;
  label: string;
  answer: string;
  /** Keeps the file (on this device first, then on the server); rejects with the reason it was refused. */
  onChoose: (file: File) => Promise<void>;
};

/**
 * A file-upload answer is recorded as 'File: {filename}'. The answer shows as soon as the
 * file is kept on this device; the upload follows, also after the network returns or a reload.
 */
export function FileAnswer({ questionIndex, label, answer, onChoose }: FileAnswerProps) {
  const [keeping, setKeeping] = useState(false);
  const [refusal, setRefusal] = useState<string | null>(null);

  async function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    setKeeping(true);
    setRefusal(null);
    try {
      await onChoose(file);
    } catch (error) {
      const message = error instanceof Error ? error.message : 'The file could not be kept. Please try again.';
      setRefusal(message);
      toast.error(message);
    } finally {
      setKeeping(false);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <input
        type="file"
        aria-label={label}
        aria-describedby={refusal ? `file-refusal-${questionIndex}` : undefined}
        disabled={keeping}
        onChange={(e) => void onChange(e)}
        className="block w-full text-sm text-muted file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:text-sm file:font-medium file:text-brand-700 hover:file:bg-brand-100"
      />
      {refusal && (
        <p id={`file-refusal-${questionIndex}`} role="alert" className="text-sm text-danger">
          {refusal}
        </p>
      )}
      {answer && !keeping && (
        <p className="text-sm text-ink" data-testid={`file-answer-${questionIndex}`}>
          {answer}
        </p>
      )}
    </div>
  );
}
