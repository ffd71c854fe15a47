import {
  agentsFor,
  WORKSPACE_AGENTS,
  WORKSPACE_AI_MODES,
  type WorkspaceAgent,
  type WorkspaceAiMode,
} from '@exam/domain/workspace-agents';
import { Field } from '@exam/ui/field';
import { Select } from '@exam/ui/select';
import { useFormContext, useWatch } from 'react-hook-form';
import { useTranslation } from 'react-i18next';
import type { ExamFormInput } from './exam-form-model.ts';

/**
 * "AI in the workspace" (docs/product.md#ai-in-the-workspace): none, the chat assistant only, or a coding agent
 * among those the assistant's provider can serve (agentsFor). The domain's workspaceAiIssue says why a choice is
 * refused; the form's schema and the server both give its message at `codingWorkspace.ai.agent`.
 */
export function WorkspaceAiField() {
  const { t } = useTranslation('editor');
  const {
    control,
    setValue,
    formState: { errors },
  } = useFormContext<ExamFormInput>();
  const ai = useWatch({ control, name: 'codingWorkspace.ai' });
  const provider = useWatch({ control, name: 'aiSettings.provider' }) ?? 'openai';
  const mode: WorkspaceAiMode = ai?.mode ?? 'chat';
  const offered = agentsFor(provider);
  const agent = ai?.agent ?? null;

  const choose = (next: { mode: WorkspaceAiMode; agent: WorkspaceAgent | null }) =>
    setValue('codingWorkspace.ai', next, { shouldDirty: true, shouldValidate: true });
  const modes = WORKSPACE_AI_MODES.map((value) => ({ value, label: t(`workspaceAiField.modes.${value}`) }));
  // The stored agent stays listed even when the provider no longer serves it, so the refusal is read beside it.
  const agentOptions = [...offered, ...(agent && !offered.includes(agent) ? [agent] : [])].map((value) => ({
    value,
    label: WORKSPACE_AGENTS[value].label,
  }));
  const error = errors.codingWorkspace?.ai?.agent?.message ?? errors.codingWorkspace?.ai?.message;

  return (
    <>
      <Field label={t('workspaceAiField.aiInTheWorkspace')} hint={t('workspaceAiField.hint')} className="max-w-md">
        <Select
          value={mode}
          options={modes}
          onValueChange={(v) => {
            const next = v as WorkspaceAiMode;
            choose({ mode: next, agent: next === 'agent' ? (agent ?? offered[0] ?? null) : null });
          }}
        />
      </Field>
      {mode === 'agent' && (
        <Field
          label={t('workspaceAiField.agent')}
          hint={offered.length > 0 ? t('workspaceAiField.agentHint') : t('workspaceAiField.noAgent', { provider })}
          error={error}
          className="max-w-md"
        >
          <Select
            value={agent ?? ''}
            options={agentOptions}
            placeholder={t('workspaceAiField.chooseAgent')}
            onValueChange={(v) => choose({ mode: 'agent', agent: v as WorkspaceAgent })}
          />
        </Field>
      )}
    </>
  );
}
