import type { RepositoryFile } from '@exam/domain/coding';
import type { CodingLanguage } from '@exam/domain/question';
import { Button } from '@exam/ui/button';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { lazy, Suspense, useId, useRef, useState } from 'react';
import { useFieldArray, useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ExamFormInput } from './exam-form-model.ts';
import { mergeRepositoryFiles, readRepositoryUpload, type RefusedUpload } from './read-repository-upload.ts';

const CodeInput = lazy(() => import('@exam/ui/code-editor'));

const EXTENSION_LANGUAGES: Record<string, CodingLanguage> = {
  py: 'python',
  js: 'javascript',
  mjs: 'javascript',
  ts: 'javascript',
  sql: 'sql',
  r: 'r',
  java: 'java',
  c: 'cpp',
  cc: 'cpp',
  cpp: 'cpp',
  h: 'cpp',
  hpp: 'cpp',
};

/** The editor's grammar for a file: by its extension, else the question's language. */
const languageOf = (path: string, fallback: CodingLanguage) =>
  EXTENSION_LANGUAGES[path.split('.').pop()?.toLowerCase() ?? ''] ?? fallback;

type Part = 'files' | 'hiddenFiles';

function FileContent({ index, part, k, label }: { index: number; part: Part; k: number; label: string }) {
  const { t } = useTranslation('editor');
  const { control, setValue } = useFormContext<ExamFormInput>();
  const name = `questions.${index}.repository.${part}.${k}` as const;
  const path = useWatch({ control, name: `${name}.path` }) ?? '';
  const content = useWatch({ control, name: `${name}.content` }) ?? '';
  const language = useWatch({ control, name: `questions.${index}.language` }) ?? 'python';
  return (
    <Suspense fallback={<p className="text-sm text-muted">{t('codingFields.loadingEditor')}</p>}>
      <CodeInput
        value={content}
        language={languageOf(path, language)}
        label={label}
        onChange={(value) => setValue(`${name}.content`, value, { shouldDirty: true })}
        testId={`repository-${part}-${index}-${k}`}
        minHeight="80px"
        maxHeight="320px"
      />
    </Suspense>
  );
}

/**
 * One list of an agentic task's files (the starter repository, or the hidden files for grading): add a file
 * (path and content in the code editor), rename it by its path, remove it, or upload several files or a .zip.
 * Issues from the form's schema or the server's 400 show at the path, or above the list for the whole list.
 */
export function RepositoryFileList({ index, part }: { index: number; part: Part }) {
  const { t } = useTranslation('editor');
  const { control, register, getValues, setValue, formState } = useFormContext<ExamFormInput>();
  const { fields, append, remove } = useFieldArray({ control, name: `questions.${index}.repository.${part}` });
  const [refused, setRefused] = useState<RefusedUpload[]>([]);
  const uploadId = useId();
  const n = index + 1;
  const what = t(`repositoryFields.${part}.one`);
  const errors = formState.errors.questions?.[index]?.repository?.[part];
  const listError = errors?.message ?? errors?.root?.message;

  // Uploads apply in the order they were chosen, each after the one before has been read.
  const queue = useRef(Promise.resolve());

  async function upload(list: readonly File[]) {
    if (list.length === 0) return;
    const read = await readRepositoryUpload(list, {
      notText: t('repositoryFields.notText'),
      badPath: t('repositoryFields.badPath'),
      badZip: (reason) => t('repositoryFields.badZip', { reason }),
    });
    const current = (getValues(`questions.${index}.repository.${part}`) ?? []) as RepositoryFile[];
    setValue(`questions.${index}.repository.${part}`, mergeRepositoryFiles(current, read.files), {
      shouldDirty: true,
    });
    setRefused(read.refused);
  }

  return (
    <section className="flex flex-col gap-3" aria-label={t(`repositoryFields.${part}.title`, { n })}>
      <div>
        <p className="text-sm font-medium text-ink">{t(`repositoryFields.${part}.heading`)}</p>
        <p className="text-xs text-muted">{t(`repositoryFields.${part}.hint`)}</p>
      </div>
      {listError && (
        <p role="alert" className="text-xs text-danger">
          {listError}
        </p>
      )}
      {fields.map((field, k) => {
        const label = t('repositoryFields.fileLabel', { what, n, k: k + 1 });
        return (
          <div
            key={field.id}
            role="group"
            aria-label={label}
            className="flex flex-col gap-2 rounded-lg border border-line p-3"
          >
            <div className="flex items-end gap-2">
              <Field label={t('repositoryFields.path')} error={errors?.[k]?.path?.message} className="grow">
                <Input
                  placeholder="src/app.py"
                  className="font-mono"
                  {...register(`questions.${index}.repository.${part}.${k}.path`)}
                />
              </Field>
              <Button
                type="button"
                variant="secondary"
                aria-label={t('repositoryFields.removeFile', { label })}
                onClick={() => remove(k)}
              >
                {t('repositoryFields.remove')}
              </Button>
            </div>
            <FileContent index={index} part={part} k={k} label={t('repositoryFields.contentLabel', { label })} />
            {errors?.[k]?.content?.message && (
              <p role="alert" className="text-xs text-danger">
                {errors[k].content.message}
              </p>
            )}
          </div>
        );
      })}
      <div className="flex flex-wrap items-center gap-2">
        <Button type="button" variant="secondary" onClick={() => append({ path: '', content: '' })}>
          {t('repositoryFields.addFile', { what })}
        </Button>
        <label htmlFor={uploadId} className="text-sm font-medium text-ink">
          {t('repositoryFields.uploadLabel', { what, n })}
        </label>
        <input
          id={uploadId}
          type="file"
          multiple
          className="text-sm"
          onChange={(e) => {
            const chosen = [...(e.target.files ?? [])];
            e.target.value = '';
            queue.current = queue.current.then(() => upload(chosen));
          }}
        />
      </div>
      {refused.length > 0 && (
        <ul role="status" className="text-xs text-danger">
          {refused.map((r) => (
            <li key={r.name}>{t('repositoryFields.refused', { name: r.name, reason: r.reason })}</li>
          ))}
        </ul>
      )}
    </section>
  );
}
