import { COMPARISONS, COMPARISON_LABELS, type Comparison } from '@exam/domain/coding';
import { Button } from '@exam/ui/button';
import { Field } from '@exam/ui/field';
import { Input, Textarea } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { Copy, Plus, Trash2 } from 'lucide-react';
import { useEffect, useState, type ComponentProps } from 'react';
import { useFormContext, useWatch } from 'react-hook-form';
import { newQuestionId, type ExamFormInput, type TestCaseInput } from './exam-form-model.ts';
import { CheckboxField } from '../../../../components/checkbox-field.tsx';
import { useTranslation } from 'react-i18next';

const COMPARISON_OPTIONS = COMPARISONS.map((value) => ({ value, label: COMPARISON_LABELS[value] }));

export function newTestCase(visible = false): TestCaseInput {
  return {
    id: newQuestionId(),
    name: '',
    stdin: '',
    args: [],
    expected: '',
    comparison: 'trimmed',
    tolerance: 1e-6,
    points: 1,
    visible,
  };
}

/**
 * A number input over a number held elsewhere: the typed text is kept while it is half-way ("2.", "") so
 * typing is never rewritten; a cleared input reports NaN, which the schema names on save.
 */
function NumberInput({
  value,
  onValue,
  ...props
}: Omit<ComponentProps<typeof Input>, 'value' | 'onChange' | 'type'> & {
  value: number | undefined;
  onValue: (value: number) => void;
}) {
  const [draft, setDraft] = useState(value === undefined || Number.isNaN(value) ? '' : String(value));
  useEffect(() => {
    setDraft((current) =>
      Number(current) === value || (current === '' && Number.isNaN(value)) ? current : String(value ?? ''),
    );
  }, [value]);
  return (
    <Input
      {...props}
      type="number"
      value={draft}
      onChange={(e) => {
        setDraft(e.target.value);
        onValue(e.target.value.trim() === '' ? Number.NaN : Number(e.target.value));
      }}
    />
  );
}

/** One test of a coding question; every edit replaces the test in the question's list. */
function TestCaseRow({
  questionIndex,
  testIndex,
  test,
  onChange,
  onRemove,
  onDuplicate,
}: {
  questionIndex: number;
  testIndex: number;
  test: TestCaseInput;
  onChange: (next: TestCaseInput) => void;
  onRemove: () => void;
  onDuplicate: () => void;
}) {
  const { t } = useTranslation('editor');
  const { formState } = useFormContext<ExamFormInput>();
  const errors = formState.errors.questions?.[questionIndex]?.tests?.[testIndex];
  const label = t('testsEditor.questionValueTestValue2', { value: questionIndex + 1, value2: testIndex + 1 });
  const set = <K extends keyof TestCaseInput>(key: K, value: TestCaseInput[K]) => onChange({ ...test, [key]: value });
  const comparison = test.comparison ?? 'trimmed';
  return (
    <div
      role="group"
      aria-label={label}
      data-testid={`test-case-${questionIndex}-${testIndex}`}
      className="flex flex-col gap-3 rounded-lg border border-line bg-surface p-3"
    >
      <div className="flex flex-wrap items-end gap-3">
        <Field label={t('testsEditor.name')} className="min-w-48 flex-1" error={errors?.name?.message}>
          <Input
            value={test.name ?? ''}
            placeholder={t('testsEditor.testValue', { value: testIndex + 1 })}
            onChange={(e) => set('name', e.target.value)}
          />
        </Field>
        <Field label={t('testsEditor.points')} className="w-28" error={errors?.points?.message}>
          <NumberInput min={0.01} step={0.01} value={test.points ?? 1} onValue={(v) => set('points', v)} />
        </Field>
        <CheckboxField
          label={t('testsEditor.visibleToCandidates')}
          checked={test.visible ?? false}
          onChange={(on) => set('visible', on)}
        />
        <div className="ml-auto flex gap-1">
          <Button
            variant="ghost"
            size="icon"
            aria-label={t('testsEditor.duplicateLabel', { label: label.toLowerCase() })}
            onClick={onDuplicate}
          >
            <Copy aria-hidden className="h-4 w-4" />
          </Button>
          <Button
            variant="ghost"
            size="icon"
            className="text-danger hover:bg-red-50"
            aria-label={t('testsEditor.removeLabel', { label: label.toLowerCase() })}
            onClick={onRemove}
          >
            <Trash2 aria-hidden className="h-4 w-4" />
          </Button>
        </div>
      </div>
      <div className="grid gap-3 md:grid-cols-2">
        <Field label={t('testsEditor.inputStdin')} error={errors?.stdin?.message}>
          <Textarea
            rows={3}
            className="font-mono text-xs"
            value={test.stdin ?? ''}
            onChange={(e) => set('stdin', e.target.value)}
          />
        </Field>
        <Field label={t('testsEditor.expectedOutput')} error={errors?.expected?.message}>
          <Textarea
            rows={3}
            className="font-mono text-xs"
            value={test.expected ?? ''}
            onChange={(e) => set('expected', e.target.value)}
          />
        </Field>
      </div>
      <div className="flex flex-wrap items-start gap-3">
        <Field label={t('testsEditor.arguments')} hint={t('testsEditor.onePerLine')} className="min-w-48 flex-1">
          <Textarea
            rows={2}
            className="font-mono text-xs"
            value={(test.args ?? []).join('\n')}
            onChange={(e) => set('args', e.target.value === '' ? [] : e.target.value.split('\n'))}
          />
        </Field>
        <Field label={t('testsEditor.comparison')} className="w-80">
          <Select
            value={comparison}
            options={COMPARISON_OPTIONS}
            onValueChange={(v) => set('comparison', v as Comparison)}
          />
        </Field>
        {comparison === 'numeric' && (
          <Field label={t('testsEditor.tolerance')} className="w-36" error={errors?.tolerance?.message}>
            <NumberInput min={0} step="any" value={test.tolerance ?? 1e-6} onValue={(v) => set('tolerance', v)} />
          </Field>
        )}
      </div>
      {errors?.id?.message && (
        <p role="alert" className="text-xs text-danger">
          {errors.id.message}
        </p>
      )}
    </div>
  );
}

/** The tests of a coding question: add, duplicate, remove; each worth its own points. */
export function TestsEditor({ index }: { index: number }) {
  const { t } = useTranslation('editor');
  const { control, setValue, formState } = useFormContext<ExamFormInput>();
  const tests = useWatch({ control, name: `questions.${index}.tests` }) ?? [];
  const listError = formState.errors.questions?.[index]?.tests?.message;
  const write = (next: TestCaseInput[]) => setValue(`questions.${index}.tests`, next, { shouldDirty: true });
  const n = index + 1;
  return (
    <fieldset className="flex flex-col gap-2" data-testid={`tests-editor-${index}`}>
      <legend className="mb-1 text-sm font-medium text-ink">{t('testsEditor.tests')}</legend>
      <p className="-mt-1 text-xs text-muted">{t('testsEditor.eachTestRunsThe')}</p>
      {tests.length > 0 && (
        // Each test is a labelled group ("Question 1 test 2"); a list item cannot also be a group.
        <div className="flex flex-col gap-3">
          {tests.map((test, i) => (
            <TestCaseRow
              key={test.id}
              questionIndex={index}
              testIndex={i}
              test={test}
              onChange={(next) => write(tests.map((t, j) => (j === i ? next : t)))}
              onRemove={() => write(tests.filter((_, j) => j !== i))}
              onDuplicate={() =>
                write([
                  ...tests.slice(0, i + 1),
                  {
                    ...test,
                    id: newQuestionId(),
                    name: test.name ? t('testsEditor.nameCopy', { name: test.name }) : '',
                  },
                  ...tests.slice(i + 1),
                ])
              }
            />
          ))}
        </div>
      )}
      {listError && (
        <p role="alert" className="text-xs text-danger">
          {listError}
        </p>
      )}
      <div>
        <Button
          variant="secondary"
          size="sm"
          aria-label={t('testsEditor.questionNAddTest', { n })}
          onClick={() => write([...tests, newTestCase(tests.length === 0)])}
        >
          <Plus aria-hidden className="h-4 w-4" /> {t('testsEditor.addTest')}
        </Button>
      </div>
    </fieldset>
  );
}
