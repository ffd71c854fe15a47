import type { Issue } from '@exam/domain/errors';
import type { RosterEntryInput } from '@exam/domain/roster';
import { Button } from '@exam/ui/button';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { useState } from 'react';
import { ApiError, userMessageOf } from '../../../lib/api-client.ts';
import { useTranslation } from 'react-i18next';

type Props = {
  initial?: RosterEntryInput;
  submitLabel: string;
  isPending: boolean;
  onSubmit: (entry: RosterEntryInput, done: { onSuccess: () => void; onError: (error: unknown) => void }) => void;
  onCancel?: () => void;
};

/** One candidate typed in: name, candidate ID and (optional) e-mail; the server's 400 marks the field. */
export function RosterEntryForm({ initial, submitLabel, isPending, onSubmit, onCancel }: Props) {
  const { t } = useTranslation('roster');
  const empty = { name: '', candidateId: '', email: '' };
  const [entry, setEntry] = useState<Required<RosterEntryInput>>({ ...empty, ...initial, email: initial?.email ?? '' });
  const [issues, setIssues] = useState<Issue[]>([]);
  const errorOf = (field: string) => issues.find((i) => i.path === field)?.message;
  const set = (field: keyof RosterEntryInput) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setEntry((current) => ({ ...current, [field]: e.target.value }));

  return (
    <form
      className="grid items-start gap-3 md:grid-cols-[1fr_1fr_1fr_auto]"
      noValidate
      onSubmit={(e) => {
        e.preventDefault();
        setIssues([]);
        onSubmit(entry, {
          onSuccess: () => {
            if (!initial) setEntry(empty);
          },
          onError: (error) => {
            const listed = error instanceof ApiError ? error.issues : [];
            setIssues(listed.length ? listed : [{ path: 'name', message: userMessageOf(error) }]);
          },
        });
      }}
    >
      <Field label={t('rosterEntryForm.name')} error={errorOf('name')}>
        <Input value={entry.name} onChange={set('name')} />
      </Field>
      <Field label={t('rosterEntryForm.candidateId')} error={errorOf('candidateId')}>
        <Input value={entry.candidateId} onChange={set('candidateId')} />
      </Field>
      <Field label={t('rosterEntryForm.email')} error={errorOf('email')}>
        <Input type="email" value={entry.email} onChange={set('email')} />
      </Field>
      <div className="flex gap-2 md:mt-6">
        <Button type="submit" disabled={isPending}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button type="button" variant="ghost" onClick={onCancel}>
            {t('rosterEntryForm.cancel')}
          </Button>
        )}
      </div>
    </form>
  );
}
