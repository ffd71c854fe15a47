import { Field } from '@exam/ui/field';
import { Input, Textarea } from '@exam/ui/input';
import { lazy, Suspense } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import type { ExamFormInput } from './exam-form-model.ts';
import { ReferenceRun } from './reference-run.tsx';
import { CodingLanguagesFields } from './coding-languages-fields.tsx';
import { RepositoryFields } from './repository-fields.tsx';
import { TestsEditor } from './tests-editor.tsx';
import { useTranslation } from 'react-i18next';

const CodeInput = lazy(() => import('@exam/ui/code-editor'));

/** CPU seconds and memory of each test run (CodingLimitsSchema). */
function LimitsFields({ index }: { index: number }) {
  const { t } = useTranslation('editor');
  const { register, formState } = useFormContext<ExamFormInput>();
  const errors = formState.errors.questions?.[index]?.limits;
  return (
    <div className="flex flex-wrap gap-4">
      <Field label={t('codingFields.cpuTimeLimitSeconds')} className="w-48" error={errors?.cpuSeconds?.message}>
        <Input
          type="number"
          min={0.1}
          max={30}
          step={0.1}
          {...register(`questions.${index}.limits.cpuSeconds`, { valueAsNumber: true })}
        />
      </Field>
      <Field label={t('codingFields.memoryLimitMb')} className="w-48" error={errors?.memoryMb?.message}>
        <Input
          type="number"
          min={32}
          max={2048}
          step={1}
          {...register(`questions.${index}.limits.memoryMb`, { valueAsNumber: true })}
        />
      </Field>
    </div>
  );
}

/**
 * A coding question's parts beyond its language: the code the candidate starts from, the tests that grade
 * it, their limits, the SQL setup script, the workspace file that is the answer, an agentic task's repository, and
 * the creator's reference solution with Run reference (docs/product.md#coding-questions).
 */
export function CodingFields({ index, examId }: { index: number; examId?: string | undefined }) {
  const { t } = useTranslation('editor');
  const { control, setValue, register, formState } = useFormContext<ExamFormInput>();
  const language = useWatch({ control, name: `questions.${index}.language` }) ?? 'python';
  const starterCode = useWatch({ control, name: `questions.${index}.starterCode` }) ?? '';
  const workspaceOn = useWatch({ control, name: 'codingWorkspace.enabled' }) ?? false;
  const errors = formState.errors.questions?.[index];
  const n = index + 1;
  return (
    <div className="flex flex-col gap-4" data-testid={`coding-fields-${index}`}>
      {errors?.language?.message && (
        <p role="alert" className="text-xs text-danger">
          {errors.language.message}
        </p>
      )}
      <div className="flex flex-col gap-1.5">
        <p className="text-sm font-medium text-ink">{t('codingFields.starterCode')}</p>
        <p className="-mt-1 text-xs text-muted">{t('codingFields.whatTheCandidateS')}</p>
        <Suspense fallback={<p className="text-sm text-muted">{t('codingFields.loadingEditor')}</p>}>
          <CodeInput
            value={starterCode}
            language={language}
            label={t('codingFields.questionNStarterCode', { n })}
            onChange={(value) => setValue(`questions.${index}.starterCode`, value, { shouldDirty: true })}
            testId={`starter-code-${index}`}
            minHeight="120px"
            maxHeight="400px"
          />
        </Suspense>
      </div>
      <CodingLanguagesFields index={index} />
      {language === 'sql' && (
        <Field
          label={t('codingFields.questionNSetupScript', { n })}
          hint={t('codingFields.createsTheTablesAnd')}
          error={errors?.setupScript?.message}
        >
          <Textarea rows={5} className="font-mono text-xs" {...register(`questions.${index}.setupScript`)} />
        </Field>
      )}
      {workspaceOn && (
        <Field
          label={t('codingFields.questionNWorkspaceFile', { n })}
          hint={t('codingFields.theFileInThe')}
          error={errors?.workspaceFile?.message}
          className="max-w-md"
        >
          <Input
            placeholder="q1/solution.py"
            {...register(`questions.${index}.workspaceFile`, {
              setValueAs: (v: string | null) => (v === null || v.trim() === '' ? null : v.trim()),
            })}
          />
        </Field>
      )}
      <RepositoryFields index={index} />
      <TestsEditor index={index} />
      <LimitsFields index={index} />
      <ReferenceRun index={index} examId={examId} />
    </div>
  );
}
