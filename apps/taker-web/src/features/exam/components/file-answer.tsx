import { UploadResponseSchema } from '@exam/domain/attempt';
import { toast } from '@exam/ui/toaster';
import { useState, type ChangeEvent } from 'react';
import { api } from '../../../config/paths.ts';
import { ApiError, apiRequest } from '../../../lib/api-client.ts';

type FileAnswerProps = {
  questionIndex: number;
  label: string;
  answer: string;
  attempt: { attemptId: string; token: string } | null;
  /** Called with 'File: {name}' once the server holds the file (or at once in a preview). */
  onUploaded: (answer: string) => void;
};

/** Spec section 5: a file-upload answer is recorded as 'File: {filename}'. */
export function FileAnswer({ questionIndex, label, answer, attempt, onUploaded }: FileAnswerProps) {
  const [uploading, setUploading] = useState(false);

  async function onChange(event: ChangeEvent<HTMLInputElement>) {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!attempt) {
      onUploaded(`File: ${file.name}`);
      return;
    }
    setUploading(true);
    try {
      const body = new FormData();
      body.append('file', file, file.name);
      const result = await apiRequest(api.file(attempt.attemptId, questionIndex), { method: 'POST', token: attempt.token, body, schema: UploadResponseSchema });
      onUploaded(result.answer);
    } catch (error) {
      toast.error(error instanceof ApiError && !error.isNetwork ? error.userMessage : 'Upload failed. Please check your connection and try again.');
    } finally {
      setUploading(false);
    }
  }

  return (
    <div className="flex flex-col gap-2">
      <input
        type="file"
        aria-label={label}
        disabled={uploading}
        onChange={(e) => void onChange(e)}
        className="block w-full text-sm text-muted file:mr-3 file:rounded-md file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:text-sm file:font-medium file:text-brand-700 hover:file:bg-brand-100"
      />
      {uploading && <p className="text-xs text-muted">Uploading…</p>}
      {answer && !uploading && (
        <p className="text-sm text-ink" data-testid={`file-answer-${questionIndex}`}>
          {answer}
        </p>
      )}
    </div>
  );
}
