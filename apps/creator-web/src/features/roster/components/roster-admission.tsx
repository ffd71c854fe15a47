import type { RosterAdmission, RosterEntry } from '@exam/domain/roster';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { toast } from '@exam/ui/toaster';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useSetRosterAdmission } from '../api/manage-roster.ts';

const MODES: RosterAdmission[] = ['invitation-link', 'candidate-id'];

/**
 * Says plainly which admission mode the exam is in and lets the creator switch it
 * (docs/product.md#rosters-and-invitations); the change applies to the next start.
 */
export function RosterAdmissionCard(props: { examId: string; mode: RosterAdmission; entries: RosterEntry[] }) {
  const { t } = useTranslation('roster');
  const setMode = useSetRosterAdmission(props.examId);
  const uninvited = props.entries.filter((e) => !e.invitedAt).length;
  const choose = (mode: RosterAdmission) =>
    setMode.mutate(mode, {
      onSuccess: () => toast.success(t('rosterAdmission.changed')),
      onError: (error) => toast.error(userMessageOf(error)),
    });
  return (
    <Card>
      <CardHeader title={t('rosterAdmission.title')} description={t('rosterAdmission.description')} />
      <CardBody>
        <p className="mb-3 font-medium text-ink">{t(`rosterAdmission.mode.${props.mode}.state`)}</p>
        {props.mode === 'invitation-link' && uninvited > 0 && (
          <p className="mb-3 text-sm text-warning">{t('rosterAdmission.uninvited', { count: uninvited })}</p>
        )}
        <fieldset className="rounded-lg border border-line p-4" disabled={setMode.isPending}>
          <legend className="px-1 text-sm font-medium text-ink">{t('rosterAdmission.legend')}</legend>
          <div className="mt-1 flex flex-col gap-2">
            {MODES.map((mode) => (
              <label key={mode} className="flex cursor-pointer items-start gap-3 text-sm">
                <input
                  type="radio"
                  name="rosterAdmission"
                  value={mode}
                  checked={props.mode === mode}
                  onChange={() => choose(mode)}
                  className="mt-1 accent-brand-600"
                />
                <span>
                  <span className="block font-medium text-ink">{t(`rosterAdmission.mode.${mode}.label`)}</span>
                  <span className="block text-muted">{t(`rosterAdmission.mode.${mode}.hint`)}</span>
                </span>
              </label>
            ))}
          </div>
        </fieldset>
      </CardBody>
    </Card>
  );
}
