import { useCallback, useEffect, useState } from 'react';
import type { TakerDb } from '../../../lib/taker-db.ts';
import { listUploads } from '../lib/uploads.ts';

/** Where a question's answer file is: on its way to the server, stored there, or refused. */
export type AnswerFileStatus = { state: 'uploading' | 'saved' | 'failed'; size?: number; error?: string };

export type AnswerFiles = {
  /** Per question; a file answer with no entry came from the server (stored). */
  status: ReadonlyMap<number, AnswerFileStatus>;
  choose: (index: number, file: File) => Promise<void>;
  remove: (index: number) => Promise<void>;
};

/**
 * The answer files' states for the file inputs. A file kept on this device is 'uploading' until the sync
 * engine settles it (`settled`); files an earlier page left unsent are 'uploading' from the start.
 */
export function useAnswerFiles(options: {
  db: TakerDb | null;
  attemptId: string | null;
  preview: boolean;
  chooseFile: (index: number, file: File) => Promise<void>;
  removeFile: (index: number) => Promise<void>;
}) {
  const { db, attemptId, preview, chooseFile, removeFile } = options;
  const [status, setStatus] = useState<ReadonlyMap<number, AnswerFileStatus>>(() => new Map());
  const update = useCallback((index: number, next: AnswerFileStatus | null) => {
    setStatus((current) => {
      const copy = new Map(current);
      if (next) copy.set(index, next);
      else copy.delete(index);
      return copy;
    });
  }, []);

  useEffect(() => {
    if (!db || !attemptId) return;
    let cancelled = false;
    listUploads(db, attemptId)
      .then((waiting) => {
        if (cancelled) return;
        setStatus((current) => {
          const copy = new Map(current);
          for (const upload of waiting) {
            if (!copy.has(upload.questionIndex))
              copy.set(upload.questionIndex, { state: 'uploading', size: upload.bytes.byteLength });
          }
          return copy;
        });
      })
      .catch((error: unknown) => console.error('Could not read the answer files kept on this device', error));
    return () => {
      cancelled = true;
    };
  }, [db, attemptId]);

  const choose = useCallback(
    async (index: number, file: File) => {
      await chooseFile(index, file);
      // A preview sends nothing: the file is as kept as it will ever be.
      update(index, { state: preview ? 'saved' : 'uploading', size: file.size });
    },
    [chooseFile, preview, update],
  );

  const remove = useCallback(
    async (index: number) => {
      await removeFile(index);
      update(index, null);
    },
    [removeFile, update],
  );

  /** The sync engine's word on an upload: stored (the answer names the file) or refused with a reason. */
  const settled = useCallback(
    (index: number, answer: string, error?: string) =>
      setStatus((current) => {
        const copy = new Map(current);
        const size = current.get(index)?.size;
        copy.set(index, error || !answer ? { state: 'failed', error } : { state: 'saved', size });
        return copy;
      }),
    [],
  );

  const files: AnswerFiles = { status, choose, remove };
  return { files, settled };
}
