import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { KeyRound } from 'lucide-react';
import { useFormContext } from 'react-hook-form';
import type { ApiKeyMode, ExamFormInput } from './exam-form-model.ts';
import { useTranslation } from 'react-i18next';

type Props = {
  hasStoredKey: boolean;
  last4: string | null;
  mode: ApiKeyMode;
  onModeChange: (mode: ApiKeyMode) => void;
};

/** The key is write-only: the editor never sees it again, only that one is set and its last four characters. */
export function ApiKeyField({ hasStoredKey, last4, mode, onModeChange }: Props) {
  const { t } = useTranslation('editor');
  const { register, setValue } = useFormContext<ExamFormInput>();
  const restore = () => {
    setValue('aiSettings.apiKey', undefined);
    onModeChange('keep');
  };

  if (hasStoredKey && mode === 'keep') {
    return (
      <div className="flex flex-col gap-1.5">
        <span className="text-sm font-medium text-ink">{t('apiKeyField.apiKey')}</span>
        <div className="flex flex-wrap items-center gap-3 rounded-lg border border-line bg-canvas px-3 py-2">
          <KeyRound aria-hidden className="h-4 w-4 text-muted" />
          <span className="text-sm text-ink">{t('apiKeyField.keySetLast4', { last4 })}</span>
          <div className="ml-auto flex gap-2">
            <Button
              size="sm"
              variant="secondary"
              aria-label={t('apiKeyField.replaceApiKey')}
              onClick={() => onModeChange('replace')}
            >
              {t('apiKeyField.replace')}
            </Button>
            <Button
              size="sm"
              variant="ghost"
              className="text-danger hover:bg-red-50"
              aria-label={t('apiKeyField.removeApiKey')}
              onClick={() => onModeChange('remove')}
            >
              {t('apiKeyField.remove')}
            </Button>
          </div>
        </div>
      </div>
    );
  }

  if (hasStoredKey && mode === 'remove') {
    return (
      <div className="flex flex-col gap-1.5">
        <span className="text-sm font-medium text-ink">{t('apiKeyField.apiKey')}</span>
        <div className="flex flex-wrap items-center gap-3 rounded-lg border border-red-200 bg-red-50 px-3 py-2">
          <Badge tone="danger">{t('apiKeyField.willBeRemoved')}</Badge>
          <span className="text-sm text-red-700">{t('apiKeyField.theStoredKeyIs')}</span>
          <Button size="sm" variant="secondary" className="ml-auto" onClick={restore}>
            {t('apiKeyField.keepApiKey')}
          </Button>
        </div>
      </div>
    );
  }

  return (
    <div className="flex items-end gap-2">
      <Field label={t('apiKeyField.apiKey')} hint={t('apiKeyField.storedEncryptedItIs')} className="flex-1">
        <Input
          type="password"
          autoComplete="off"
          spellCheck={false}
          placeholder={hasStoredKey ? t('apiKeyField.pasteTheNewKey') : 'sk-…'}
          {...register('aiSettings.apiKey')}
        />
      </Field>
      {hasStoredKey && (
        <Button variant="ghost" className="mb-5" aria-label={t('apiKeyField.cancelApiKeyChange')} onClick={restore}>
          {t('apiKeyField.cancel')}
        </Button>
      )}
    </div>
  );
}
