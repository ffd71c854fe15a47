import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Input, Textarea } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { SwitchField } from '@exam/ui/switch';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import type { ReleasePolicy } from '@exam/domain/exam';
import { RichTextField } from '../../../../components/rich-text-field.tsx';
import type { ExamFormInput } from './exam-form-model.ts';
import { QuestionDisplayField } from './question-display-field.tsx';
import { CheckboxField } from './question-scoring.tsx';

const RELEASE_OPTIONS = [
  { value: 'never', label: 'Never' },
  { value: 'on-release', label: 'When I release them' },
  { value: 'immediately', label: 'As soon as they are graded' },
];

export function DetailsCard() {
  const { register, control, formState } = useFormContext<ExamFormInput>();
  const timerEnabled = useWatch({ control, name: 'timerEnabled' });
  const description = useWatch({ control, name: 'description' }) ?? '';
  const rules = useWatch({ control, name: 'rules' }) ?? '';
  const { errors } = formState;
  return (
    <Card>
      <CardHeader title="Exam Details" description="What candidates see first, and how long they have." />
      <CardBody className="flex flex-col gap-5">
        <Field label="Exam Title" error={errors.title?.message}>
          <Input placeholder="e.g. Data Structures Midterm" {...register('title')} />
        </Field>
        <RichTextField
          label="Description"
          hint="Shown to candidates before they start and above the questions."
          error={errors.description?.message}
          text={description}
        >
          <Textarea rows={4} placeholder="What this exam covers" {...register('description')} />
        </RichTextField>
        <RichTextField
          label="Rules"
          hint="Shown to candidates on the briefing, before they start."
          error={errors.rules?.message}
          text={rules}
        >
          <Textarea rows={4} placeholder="e.g. No notes; a calculator is allowed" {...register('rules')} />
        </RichTextField>
        <div className="grid gap-5 md:grid-cols-2">
          <div className="flex flex-col gap-3 rounded-lg border border-line p-4">
            <Controller
              control={control}
              name="timerEnabled"
              render={({ field }) => (
                <SwitchField
                  label="Enable Timer"
                  hint="Submit automatically when time runs out."
                  checked={field.value ?? false}
                  onCheckedChange={field.onChange}
                />
              )}
            />
            {timerEnabled && (
              <Field label="Duration (minutes)" error={errors.timerMinutes?.message}>
                <Input
                  type="number"
                  min={1}
                  step={1}
                  inputMode="numeric"
                  className="max-w-40"
                  {...register('timerMinutes', { valueAsNumber: true })}
                />
              </Field>
            )}
          </div>
          <div className="rounded-lg border border-line p-4">
            <Controller
              control={control}
              name="fullScreenEnabled"
              render={({ field }) => (
                <SwitchField
                  label="Fullscreen Mode"
                  hint="Candidates must stay in full screen."
                  checked={field.value ?? false}
                  onCheckedChange={field.onChange}
                />
              )}
            />
          </div>
        </div>
        <QuestionDisplayField />
        <div className="grid gap-5 md:grid-cols-2">
          <Controller
            control={control}
            name="releasePolicy"
            render={({ field }) => (
              <Field label="Results for candidates" hint="When candidates can see their score and feedback.">
                <Select
                  value={field.value ?? 'on-release'}
                  options={RELEASE_OPTIONS}
                  onValueChange={(v) => field.onChange(v as ReleasePolicy)}
                />
              </Field>
            )}
          />
          <Controller
            control={control}
            name="showAnswerKeys"
            render={({ field }) => (
              <CheckboxField
                label="Show answer keys in released results"
                checked={field.value ?? false}
                onChange={field.onChange}
              />
            )}
          />
        </div>
      </CardBody>
    </Card>
  );
}
