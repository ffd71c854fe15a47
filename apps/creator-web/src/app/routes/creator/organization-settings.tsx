import { PageHeader } from '@exam/ui/page-header';
import { PageSpinner } from '@exam/ui/spinner';
import { useTranslation } from 'react-i18next';
import { useOrganization } from '../../../features/organizations/api/manage-organization.ts';
import { InvitationsCard } from '../../../features/organizations/components/invitations-card.tsx';
import { MembersCard } from '../../../features/organizations/components/members-card.tsx';
import { SignInCard } from '../../../features/organizations/components/sign-in-card.tsx';
import { SsoCard } from '../../../features/organizations/components/sso-card.tsx';
import { userMessageOf } from '../../../lib/api-client.ts';

/**
 * The organization's admins: members and invitations, password sign-in, and the single sign-on provider; and for
 * anyone, invitations to move to another organization.
 */
export function OrganizationSettingsRoute() {
  const { t } = useTranslation('organization');
  const organization = useOrganization();
  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={t('title')} description={t('subtitle')} />
      {/* Any creator invited elsewhere lands here from the invitation's e-mail, admin of their organization or not. */}
      <InvitationsCard />
      {organization.isError && (
        <p role="alert" className="text-sm text-danger">
          {userMessageOf(organization.error)}
        </p>
      )}
      {organization.isPending && <PageSpinner />}
      {organization.data && (
        <>
          <SignInCard organization={organization.data} />
          <SsoCard key={organization.data.sso?.updatedAt ?? 'none'} organization={organization.data} />
          <MembersCard organization={organization.data} />
        </>
      )}
    </div>
  );
}
