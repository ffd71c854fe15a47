import { AI_CATALOGUE, AI_PROVIDERS, type AiProvider } from '@exam/domain/ai-catalogue';
import { AUDIT_MAX_COMPARISONS, type AuditConfiguration } from '@exam/domain/assistant-audit';
import { Button } from '@exam/ui/button';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { Select } from '@exam/ui/select';
import { Plus, Trash2 } from 'lucide-react';
import { useTranslation } from 'react-i18next';

/** A row as typed: the model may be empty and the URL half-written until the start checks them. */
export type ConfigurationDraft = { provider: AiProvider; model: string; baseUrl: string };

const PROVIDER_OPTIONS = AI_PROVIDERS.map((provider) => ({ value: provider, label: AI_CATALOGUE[provider].label }));

export const newConfigurationDraft = (provider: AiProvider = 'openai'): ConfigurationDraft => ({
  provider,
  model: AI_CATALOGUE[provider].models[0]?.id ?? '',
  baseUrl: '',
});

/** The configurations to send: the drafts as the contract's AuditConfiguration (checked by the start's schema). */
export const toConfigurations = (drafts: readonly ConfigurationDraft[]): AuditConfiguration[] =>
  drafts.map(({ provider, model, baseUrl }) => ({
    provider,
    model: model.trim(),
    baseUrl: provider === 'openai-compatible' ? baseUrl.trim() : '',
  }));

type Props = {
  value: ConfigurationDraft[];
  onChange: (next: ConfigurationDraft[]) => void;
  /** Messages by path (`compareWith.0.provider`), from the schema or a 400. */
  errors: Record<string, string>;
  disabled?: boolean;
};

/** "Compare with another configuration": up to AUDIT_MAX_COMPARISONS providers/models asked the same attempts. */
export function CompareConfigurations({ value, onChange, errors, disabled = false }: Props) {
  const { t } = useTranslation('audit');
  const update = (index: number, patch: Partial<ConfigurationDraft>) =>
    onChange(value.map((row, i) => (i === index ? { ...row, ...patch } : row)));
  return (
    <div className="flex flex-col gap-3">
      <div className="flex flex-col gap-0.5">
        <h4 className="text-sm font-medium text-ink">{t('compare.heading')}</h4>
        <p className="text-xs text-muted">{t('compare.hint', { max: AUDIT_MAX_COMPARISONS })}</p>
      </div>
      {value.map((row, index) => {
        const path = `compareWith.${index}`;
        const models = AI_CATALOGUE[row.provider].models.map((m) => ({ value: m.id, label: m.id }));
        return (
          <fieldset key={index} className="grid gap-3 rounded-md border border-line p-3 md:grid-cols-[1fr_1fr_auto]">
            <legend className="px-1 text-xs font-medium text-muted">{t('compare.row', { number: index + 1 })}</legend>
            <Field label={t('compare.provider')} error={errors[`${path}.provider`]}>
              <Select
                value={row.provider}
                options={PROVIDER_OPTIONS}
                disabled={disabled}
                onValueChange={(next) =>
                  onChange(value.map((r, i) => (i === index ? newConfigurationDraft(next as AiProvider) : r)))
                }
              />
            </Field>
            {row.provider === 'openai-compatible' ? (
              <Field label={t('compare.model')} error={errors[`${path}.model`]}>
                <Input
                  value={row.model}
                  disabled={disabled}
                  placeholder={t('compare.customModelPlaceholder')}
                  onChange={(e) => update(index, { model: e.target.value })}
                />
              </Field>
            ) : (
              <Field label={t('compare.model')} error={errors[`${path}.model`]}>
                <Select
                  value={row.model}
                  options={models}
                  disabled={disabled}
                  placeholder={t('compare.modelPlaceholder')}
                  onValueChange={(model) => update(index, { model })}
                />
              </Field>
            )}
            <div className="flex items-end">
              <Button
                type="button"
                variant="ghost"
                size="icon"
                disabled={disabled}
                aria-label={t('compare.remove', { number: index + 1 })}
                onClick={() => onChange(value.filter((_, i) => i !== index))}
              >
                <Trash2 aria-hidden className="h-4 w-4" />
              </Button>
            </div>
            {row.provider === 'openai-compatible' && (
              <Field
                label={t('compare.baseUrl')}
                hint={t('compare.baseUrlHint')}
                error={errors[`${path}.baseUrl`]}
                className="md:col-span-3"
              >
                <Input
                  type="url"
                  value={row.baseUrl}
                  disabled={disabled}
                  placeholder="https://…"
                  onChange={(e) => update(index, { baseUrl: e.target.value })}
                />
              </Field>
            )}
          </fieldset>
        );
      })}
      <div>
        <Button
          type="button"
          variant="secondary"
          size="sm"
          disabled={disabled || value.length >= AUDIT_MAX_COMPARISONS}
          onClick={() => onChange([...value, newConfigurationDraft()])}
        >
          <Plus aria-hidden className="h-4 w-4" /> {t('compare.add')}
        </Button>
      </div>
    </div>
  );
}
