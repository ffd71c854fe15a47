import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { PageSpinner } from '@exam/ui/spinner';
import { AlertTriangle } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useMembers } from '../api/manage-members.ts';
import { AddMemberForm } from './add-member-form.tsx';
import { MembersTable } from './members-table.tsx';
import { PendingInvites } from './pending-invites.tsx';

/** /creator/exam-sharing/{examId}: who has which role on the exam (the owner's page, @exam/domain/roles). */
export function SharingPanel({ examId }: { examId: string }) {
  const { t } = useTranslation('sharing');
  const members = useMembers(examId);
  if (members.isPending) return <PageSpinner label={t('sharingPage.loading')} />;
  if (members.isError) {
    return (
      <Card>
        <EmptyState
          icon={<AlertTriangle aria-hidden />}
          title={t('sharingPage.couldNotLoad')}
          description={userMessageOf(members.error)}
          action={
            <Button variant="secondary" onClick={() => void members.refetch()}>
              {t('sharingPage.tryAgain')}
            </Button>
          }
        />
      </Card>
    );
  }
  return (
    <div className="flex flex-col gap-6">
      <AddMemberForm examId={examId} />
      <MembersTable examId={examId} data={members.data} />
      <PendingInvites examId={examId} invites={members.data.invites} />
    </div>
  );
}
