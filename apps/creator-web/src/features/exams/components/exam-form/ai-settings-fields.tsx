import { AI_CATALOGUE, AI_PROVIDERS, type AiProvider } from '@exam/domain/ai-catalogue';
import {
  DEFAULT_EXAM_REQUESTS_PER_HOUR,
  DEFAULT_EXAM_TOKENS_PER_HOUR,
  DEFAULT_GRADING_TOKENS,
} from '@exam/domain/exam-ai';
import { Field } from '@exam/ui/field';
import { Input, Textarea } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { SwitchField } from '@exam/ui/switch';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import type { ExamFormInput } from './exam-form-model.ts';
import { useTranslation } from 'react-i18next';
import type { ParseKeys } from 'i18next';
import { formatCount } from '../../../../lib/format-number.ts';

const PROVIDER_OPTIONS = AI_PROVIDERS.map((value) => ({ value, label: AI_CATALOGUE[value].label }));

type SwitchName = 'stopSolutions' | 'copyLLMResponse' | 'uploadDocuments' | 'processCode' | 'courseAssistanceEnabled';
const SWITCHES: Array<{ name: SwitchName; label: ParseKeys<'editor'>; hint: ParseKeys<'editor'> }> = [
  {
    name: 'stopSolutions',
    label: 'aiSettingsFields.switch.stopSolutions',
    hint: 'aiSettingsFields.switch.stopSolutionsHint',
  },
  { name: 'copyLLMResponse', label: 'aiSettingsFields.switch.copy', hint: 'aiSettingsFields.switch.copyHint' },
  { name: 'uploadDocuments', label: 'aiSettingsFields.switch.upload', hint: 'aiSettingsFields.switch.uploadHint' },
  {
    name: 'processCode',
    label: 'aiSettingsFields.switch.processCode',
    hint: 'aiSettingsFields.switch.processCodeHint',
  },
  {
    name: 'courseAssistanceEnabled',
    label: 'aiSettingsFields.switch.courseAssistance',
    hint: 'aiSettingsFields.switch.courseAssistanceHint',
  },
];

export function ProviderAndModel() {
  const { t } = useTranslation('editor');
  const { control, register, setValue, formState } = useFormContext<ExamFormInput>();
  const provider = useWatch({ control, name: 'aiSettings.provider' }) ?? 'openai';
  const model = useWatch({ control, name: 'aiSettings.model' }) ?? '';
  const errors = formState.errors.aiSettings;
  const models = AI_CATALOGUE[provider].models.map((m) => ({
    value: m.id,
    label: m.contextTokens
      ? t('aiSettingsFields.modelWithTokens', { model: m.id, tokens: formatCount(m.contextTokens) })
      : m.id,
  }));

  const changeProvider = (next: AiProvider) => {
    setValue('aiSettings.provider', next, { shouldDirty: true });
    // A model of another provider would be rejected; start from the new provider's first model.
    setValue('aiSettings.model', AI_CATALOGUE[next].models[0]?.id ?? '', { shouldDirty: true });
  };

  return (
    <div className="grid gap-5 md:grid-cols-2">
      <Field label={t('aiSettingsFields.aiProvider')}>
        <Select value={provider} options={PROVIDER_OPTIONS} onValueChange={(v) => changeProvider(v as AiProvider)} />
      </Field>
      {provider === 'openai-compatible' ? (
        <Field label={t('aiSettingsFields.model')} error={errors?.model?.message}>
          <Input placeholder={t('aiSettingsFields.eGLlama31')} {...register('aiSettings.model')} />
        </Field>
      ) : (
        <Field label={t('aiSettingsFields.model')} error={errors?.model?.message}>
          <Select
            value={model}
            placeholder={t('aiSettingsFields.selectAModel')}
            options={models}
            onValueChange={(v) => setValue('aiSettings.model', v, { shouldDirty: true })}
          />
        </Field>
      )}
      {provider === 'openai-compatible' && (
        <Field
          label={t('aiSettingsFields.baseUrl')}
          hint={t('aiSettingsFields.theServerSOpenai')}
          error={errors?.baseUrl?.message}
          className="md:col-span-2"
        >
          <Input type="url" placeholder="https://…" {...register('aiSettings.baseUrl')} />
        </Field>
      )}
    </div>
  );
}

/** The custom prompt and the welcome message. */
export function PromptFields() {
  const { t } = useTranslation('editor');
  const { register, formState } = useFormContext<ExamFormInput>();
  const errors = formState.errors.aiSettings;
  return (
    <>
      <Field
        label={t('aiSettingsFields.customPromptGuardrails')}
        hint={t('aiSettingsFields.rulesTheAssistantFollows')}
        error={errors?.customPrompt?.message}
      >
        <Textarea
          rows={4}
          placeholder={t('aiSettingsFields.eGExplainConcepts')}
          {...register('aiSettings.customPrompt')}
        />
      </Field>
      <Field
        label={t('aiSettingsFields.welcomeMessage')}
        hint={t('aiSettingsFields.theAssistantSFirst')}
        error={errors?.startMessage?.message}
      >
        <Textarea rows={2} placeholder={t('aiSettingsFields.helloICanHelp')} {...register('aiSettings.startMessage')} />
      </Field>
    </>
  );
}

/** What the assistant may do, one switch each. */
export function AssistantSwitches() {
  const { t } = useTranslation('editor');
  const { control } = useFormContext<ExamFormInput>();
  return (
    <div className="grid gap-4 rounded-lg border border-line p-4 md:grid-cols-2">
      {SWITCHES.map((s) => (
        <Controller
          key={s.name}
          control={control}
          name={`aiSettings.${s.name}`}
          render={({ field }) => (
            <SwitchField
              label={t(s.label)}
              hint={t(s.hint)}
              checked={field.value ?? false}
              onCheckedChange={field.onChange}
            />
          )}
        />
      ))}
    </div>
  );
}

/** How direct the help is and how much of the conversation the assistant reads. */
export function AssistanceFields() {
  const { t } = useTranslation('editor');
  const { control, register, formState } = useFormContext<ExamFormInput>();
  const level = useWatch({ control, name: 'aiSettings.courseAssistanceLevel' });
  const errors = formState.errors.aiSettings;
  return (
    <div className="grid gap-5 md:grid-cols-2">
      <Field
        label={t('aiSettingsFields.courseAssistanceLevel')}
        hint={t('aiSettingsFields.valueOf10Higher', { value: level ?? 5 })}
      >
        <input
          type="range"
          min={0}
          max={10}
          step={1}
          className="h-10 w-full accent-brand-600"
          {...register('aiSettings.courseAssistanceLevel', { valueAsNumber: true })}
        />
      </Field>
      <Field
        label={t('aiSettingsFields.contextLengthCharacters')}
        hint={t('aiSettingsFields.between100And10000')}
        error={errors?.contextLength?.message}
      >
        <Input
          type="number"
          min={100}
          max={10000}
          step={100}
          {...register('aiSettings.contextLength', { valueAsNumber: true })}
        />
      </Field>
    </div>
  );
}

/** The per-candidate message and token budget. */
export function BudgetFields() {
  const { t } = useTranslation('editor');
  const { register, formState } = useFormContext<ExamFormInput>();
  const errors = formState.errors.aiSettings;
  return (
    <fieldset className="grid gap-5 rounded-lg border border-line p-4 md:grid-cols-3">
      <legend className="px-1 text-sm font-medium text-ink">{t('aiSettingsFields.budgetPerCandidate')}</legend>
      <Field label={t('aiSettingsFields.messagesPerWindow')} error={errors?.budget?.messagesPerWindow?.message}>
        <Input
          type="number"
          min={1}
          max={1000}
          {...register('aiSettings.budget.messagesPerWindow', { valueAsNumber: true })}
        />
      </Field>
      <Field label={t('aiSettingsFields.windowMinutes')} error={errors?.budget?.windowMinutes?.message}>
        <Input
          type="number"
          min={1}
          max={240}
          {...register('aiSettings.budget.windowMinutes', { valueAsNumber: true })}
        />
      </Field>
      <Field label={t('aiSettingsFields.tokensPerAttempt')} error={errors?.budget?.tokensPerAttempt?.message}>
        <Input
          type="number"
          min={1000}
          step={1000}
          {...register('aiSettings.budget.tokensPerAttempt', { valueAsNumber: true })}
        />
      </Field>
    </fieldset>
  );
}

/**
 * The exam-wide budget: what all candidates together may spend in any hour, so a flood of new attempts
 * cannot spend the key without bound, and what AI-suggested marks may spend over the exam's whole life.
 * Defaults and their reasoning: DEFAULT_EXAM_*_PER_HOUR and DEFAULT_GRADING_TOKENS in @exam/domain/exam-ai.
 */
export function ExamBudgetFields() {
  const { t } = useTranslation('editor');
  const { register, formState } = useFormContext<ExamFormInput>();
  const errors = formState.errors.aiSettings?.budget;
  return (
    <fieldset className="grid gap-5 rounded-lg border border-line p-4 md:grid-cols-2">
      <legend className="px-1 text-sm font-medium text-ink">{t('aiSettingsFields.budgetForTheWhole')}</legend>
      <Field
        label={t('aiSettingsFields.messagesPerHourAll')}
        hint={t('aiSettingsFields.requestsDefault', { value: formatCount(DEFAULT_EXAM_REQUESTS_PER_HOUR) })}
        error={errors?.examRequestsPerHour?.message}
      >
        <Input
          type="number"
          min={1}
          max={100_000}
          {...register('aiSettings.budget.examRequestsPerHour', { valueAsNumber: true })}
        />
      </Field>
      <Field
        label={t('aiSettingsFields.tokensPerHourAll')}
        hint={t('aiSettingsFields.tokensDefault', { value: formatCount(DEFAULT_EXAM_TOKENS_PER_HOUR) })}
        error={errors?.examTokensPerHour?.message}
      >
        <Input
          type="number"
          min={1000}
          max={100_000_000}
          step={1000}
          {...register('aiSettings.budget.examTokensPerHour', { valueAsNumber: true })}
        />
      </Field>
      <Field
        label={t('aiSettingsFields.gradingTokens')}
        hint={t('aiSettingsFields.gradingTokensHint', { value: formatCount(DEFAULT_GRADING_TOKENS) })}
        error={errors?.gradingTokens?.message}
      >
        <Input
          type="number"
          min={0}
          max={100_000_000}
          step={1000}
          {...register('aiSettings.budget.gradingTokens', { valueAsNumber: true })}
        />
      </Field>
    </fieldset>
  );
}

/**
 * Reliance calibration (docs/product.md#reliance-calibration): the assistant is sometimes wrong on purpose, on the
 * questions given a planted error in their editor, for a share of the candidate's turns about them. The share is
 * stored as a fraction (0.05–1) and typed as a percentage.
 */
export function PlantedErrorsFields() {
  const { t } = useTranslation('editor');
  const { control, formState } = useFormContext<ExamFormInput>();
  const enabled = useWatch({ control, name: 'aiSettings.plantedErrors.enabled' }) ?? false;
  const errors = formState.errors.aiSettings?.plantedErrors;
  return (
    <div className="flex flex-col gap-4 rounded-lg border border-line p-4" data-testid="planted-errors-settings">
      <Controller
        control={control}
        name="aiSettings.plantedErrors.enabled"
        render={({ field }) => (
          <SwitchField
            label={t('aiSettingsFields.plantedErrors.toggle')}
            hint={t('aiSettingsFields.plantedErrors.disclosed')}
            checked={field.value ?? false}
            onCheckedChange={field.onChange}
          />
        )}
      />
      {enabled && (
        <Controller
          control={control}
          name="aiSettings.plantedErrors.share"
          render={({ field }) => (
            <Field
              label={t('aiSettingsFields.plantedErrors.share')}
              hint={t('aiSettingsFields.plantedErrors.shareHint')}
              error={errors?.share?.message}
              className="max-w-72"
            >
              <Input
                type="number"
                min={5}
                max={100}
                step={1}
                inputMode="numeric"
                value={field.value === undefined || Number.isNaN(field.value) ? '' : Math.round(field.value * 100)}
                onChange={(e) => field.onChange(e.target.value === '' ? Number.NaN : Number(e.target.value) / 100)}
                onBlur={field.onBlur}
              />
            </Field>
          )}
        />
      )}
      {enabled && <p className="text-xs text-muted">{t('aiSettingsFields.plantedErrors.perQuestion')}</p>}
    </div>
  );
}
