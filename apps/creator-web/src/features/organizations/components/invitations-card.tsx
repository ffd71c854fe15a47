import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { toast } from '@exam/ui/toaster';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import {
  useAcceptInvitation,
  useDeclineInvitation,
  useOrganizationInvitations,
} from '../api/organization-invitations.ts';

/**
 * Invitations from other organizations to the signed-in creator, admin or not. Accepting moves the account (its
 * exams stay its own); the service refuses the last admin of an organization others are still in, with the reason.
 */
export function InvitationsCard() {
  const { t } = useTranslation('organization');
  const invitations = useOrganizationInvitations();
  const accept = useAcceptInvitation();
  const decline = useDeclineInvitation();
  const list = invitations.data?.invitations ?? [];
  if (list.length === 0) return null;
  return (
    <Card>
      <CardHeader title={t('invitations.title')} description={t('invitations.description')} />
      <CardBody>
        <ul className="flex flex-col gap-3">
          {list.map((invitation) => (
            <li key={invitation.organizationId} className="flex flex-wrap items-center justify-between gap-3">
              <span className="text-sm text-ink">
                {t('invitations.from', { name: invitation.organizationName, role: t(`roles.${invitation.role}`) })}
              </span>
              <span className="flex gap-2">
                <Button
                  disabled={accept.isPending}
                  onClick={() =>
                    accept.mutate(invitation.organizationId, {
                      onSuccess: (moved) => toast.success(t('invitations.moved', { name: moved.name })),
                      onError: (error) => toast.error(userMessageOf(error)),
                    })
                  }
                >
                  {t('invitations.accept')}
                </Button>
                <Button
                  variant="secondary"
                  disabled={decline.isPending}
                  onClick={() =>
                    decline.mutate(invitation.organizationId, {
                      onSuccess: () => toast.success(t('invitations.declined')),
                      onError: (error) => toast.error(userMessageOf(error)),
                    })
                  }
                >
                  {t('invitations.decline')}
                </Button>
              </span>
            </li>
          ))}
        </ul>
      </CardBody>
    </Card>
  );
}
