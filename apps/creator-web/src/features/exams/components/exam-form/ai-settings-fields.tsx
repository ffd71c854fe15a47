import { AI_CATALOGUE, AI_PROVIDERS, type AiProvider } from '@exam/domain/ai-catalogue';
import { DEFAULT_EXAM_REQUESTS_PER_HOUR, DEFAULT_EXAM_TOKENS_PER_HOUR } from '@exam/domain/exam';
import { Field } from '@exam/ui/field';
import { Input, Textarea } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { SwitchField } from '@exam/ui/switch';
import { Controller, useFormContext, useWatch } from 'react-hook-form';
import type { ExamFormInput } from './exam-form-model.ts';

const PROVIDER_OPTIONS = AI_PROVIDERS.map((value) => ({ value, label: AI_CATALOGUE[value].label }));

type SwitchName = 'stopSolutions' | 'copyLLMResponse' | 'uploadDocuments' | 'processCode' | 'courseAssistanceEnabled';
const SWITCHES: Array<{ name: SwitchName; label: string; hint: string }> = [
  { name: 'stopSolutions', label: 'Stop Solutions', hint: 'The assistant guides but never hands over full answers.' },
  { name: 'copyLLMResponse', label: 'Allow Copying AI Responses', hint: 'Candidates may select and copy the replies.' },
  { name: 'uploadDocuments', label: 'Allow Document Uploads', hint: 'Candidates may attach files to their messages.' },
  { name: 'processCode', label: 'Process Code', hint: 'The assistant may reason about and run through code.' },
  {
    name: 'courseAssistanceEnabled',
    label: 'Enable Course Assistance',
    hint: 'Use the course materials below to shape the help.',
  },
];

export function ProviderAndModel() {
  const { control, register, setValue, formState } = useFormContext<ExamFormInput>();
  const provider = useWatch({ control, name: 'aiSettings.provider' }) ?? 'openai';
  const model = useWatch({ control, name: 'aiSettings.model' }) ?? '';
  const errors = formState.errors.aiSettings;
  const models = AI_CATALOGUE[provider].models.map((m) => ({
    value: m.id,
    label: m.contextTokens ? `${m.id} (${m.contextTokens.toLocaleString('en-US')} tokens)` : m.id,
  }));

  const changeProvider = (next: AiProvider) => {
    setValue('aiSettings.provider', next, { shouldDirty: true });
    // A model of another provider would be rejected; start from the new provider's first model.
    setValue('aiSettings.model', AI_CATALOGUE[next].models[0]?.id ?? '', { shouldDirty: true });
  };

  return (
    <div className="grid gap-5 md:grid-cols-2">
      <Field label="AI Provider">
        <Select value={provider} options={PROVIDER_OPTIONS} onValueChange={(v) => changeProvider(v as AiProvider)} />
      </Field>
      {provider === 'openai-compatible' ? (
        <Field label="Model" error={errors?.model?.message}>
          <Input placeholder="e.g. llama3.1:8b" {...register('aiSettings.model')} />
        </Field>
      ) : (
        <Field label="Model" error={errors?.model?.message}>
          <Select
            value={model}
            placeholder="Select a model"
            options={models}
            onValueChange={(v) => setValue('aiSettings.model', v, { shouldDirty: true })}
          />
        </Field>
      )}
      {provider === 'openai-compatible' && (
        <Field
          label="Base URL"
          hint="The server's OpenAI-compatible endpoint, e.g. http://localhost:11434/v1"
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
  const { register, formState } = useFormContext<ExamFormInput>();
  const errors = formState.errors.aiSettings;
  return (
    <>
      <Field
        label="Custom Prompt (guardrails)"
        hint="Rules the assistant follows, added to its instructions."
        error={errors?.customPrompt?.message}
      >
        <Textarea
          rows={4}
          placeholder="e.g. Explain concepts, never write the final code."
          {...register('aiSettings.customPrompt')}
        />
      </Field>
      <Field
        label="Welcome Message"
        hint="The assistant's first message to the candidate."
        error={errors?.startMessage?.message}
      >
        <Textarea
          rows={2}
          placeholder="Hello! I can help you understand the questions."
          {...register('aiSettings.startMessage')}
        />
      </Field>
    </>
  );
}

/** What the assistant may do, one switch each. */
export function AssistantSwitches() {
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
              label={s.label}
              hint={s.hint}
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
  const { control, register, formState } = useFormContext<ExamFormInput>();
  const level = useWatch({ control, name: 'aiSettings.courseAssistanceLevel' });
  const errors = formState.errors.aiSettings;
  return (
    <div className="grid gap-5 md:grid-cols-2">
      <Field label="Course Assistance Level" hint={`${level ?? 5} of 10 — higher gives clearer, more direct help.`}>
        <input
          type="range"
          min={0}
          max={10}
          step={1}
          className="h-10 w-full accent-brand-600"
          {...register('aiSettings.courseAssistanceLevel', { valueAsNumber: true })}
        />
      </Field>
      <Field label="Context Length (characters)" hint="Between 100 and 10000." error={errors?.contextLength?.message}>
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
  const { register, formState } = useFormContext<ExamFormInput>();
  const errors = formState.errors.aiSettings;
  return (
    <fieldset className="grid gap-5 rounded-lg border border-line p-4 md:grid-cols-3">
      <legend className="px-1 text-sm font-medium text-ink">Budget per candidate</legend>
      <Field label="Messages per Window" error={errors?.budget?.messagesPerWindow?.message}>
        <Input
          type="number"
          min={1}
          max={1000}
          {...register('aiSettings.budget.messagesPerWindow', { valueAsNumber: true })}
        />
      </Field>
      <Field label="Window (minutes)" error={errors?.budget?.windowMinutes?.message}>
        <Input
          type="number"
          min={1}
          max={240}
          {...register('aiSettings.budget.windowMinutes', { valueAsNumber: true })}
        />
      </Field>
      <Field label="Tokens per Attempt" error={errors?.budget?.tokensPerAttempt?.message}>
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
 * cannot spend the key without bound. Defaults and their reasoning: DEFAULT_EXAM_*_PER_HOUR in @exam/domain/exam.
 */
export function ExamBudgetFields() {
  const { register, formState } = useFormContext<ExamFormInput>();
  const errors = formState.errors.aiSettings?.budget;
  return (
    <fieldset className="grid gap-5 rounded-lg border border-line p-4 md:grid-cols-2">
      <legend className="px-1 text-sm font-medium text-ink">Budget for the whole exam</legend>
      <Field
        label="Messages per Hour (all candidates)"
        hint={`Default ${DEFAULT_EXAM_REQUESTS_PER_HOUR.toLocaleString('en-US')}. Past it, candidates are asked to wait.`}
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
        label="Tokens per Hour (all candidates)"
        hint={`Default ${DEFAULT_EXAM_TOKENS_PER_HOUR.toLocaleString('en-US')}: prompts and replies together.`}
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
    </fieldset>
  );
}
