import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Spinner } from '@exam/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { toast } from '@exam/ui/toaster';
import { GraduationCap } from 'lucide-react';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useImportLmsRoster, useLmsRosterPreview, useLmsRosterSource } from '../api/manage-roster.ts';

/**
 * "Import from LMS" for an exam placed in an LMS course (LTI Names and Role Provisioning): the course's active
 * learners are previewed, then added with the LMS user id as candidate ID, the id their launches carry.
 * Shown only when the exam has such a course.
 */
export function RosterLmsImport({ examId }: { examId: string }) {
  const { t } = useTranslation('roster');
  const source = useLmsRosterSource(examId);
  const [asked, setAsked] = useState(false);
  const preview = useLmsRosterPreview(examId, asked);
  const importLearners = useImportLmsRoster(examId);
  if (!source.data?.linked) return null;
  const courses = source.data.courses.map((c) => c.title ?? c.contextId ?? c.platformName).join(', ');
  const members = preview.data?.members ?? [];
  const newcomers = members.filter((m) => !m.onRoster).length;

  return (
    <Card>
      <CardHeader title={t('rosterLms.title')} description={t('rosterLms.description', { courses })} />
      <CardBody className="flex flex-col gap-4">
        <div className="flex flex-wrap items-center gap-3">
          <Button variant="secondary" onClick={() => (asked ? void preview.refetch() : setAsked(true))}>
            <GraduationCap aria-hidden className="h-4 w-4" /> {t('rosterLms.preview')}
          </Button>
          {preview.data && (
            <Button
              disabled={members.length === 0 || importLearners.isPending}
              onClick={() =>
                importLearners.mutate(undefined, {
                  onSuccess: (r) => toast.success(t('rosterLms.imported', { count: r.imported })),
                  onError: (error) => toast.error(userMessageOf(error)),
                })
              }
            >
              {t('rosterLms.import', { count: members.length })}
            </Button>
          )}
        </div>
        {preview.isFetching && <Spinner label={t('rosterLms.reading')} />}
        {preview.isError && (
          <p role="alert" className="text-sm text-danger">
            {userMessageOf(preview.error)}
          </p>
        )}
        {preview.data && (
          <>
            <p className="text-sm text-muted">
              {t('rosterLms.summary', { count: members.length, newcomers, skipped: preview.data.skipped })}
            </p>
            {members.length > 0 && (
              <Table aria-label={t('rosterLms.learners')}>
                <TableHead>
                  <tr>
                    <TableHeaderCell>{t('rosterLms.name')}</TableHeaderCell>
                    <TableHeaderCell>{t('rosterLms.candidateId')}</TableHeaderCell>
                    <TableHeaderCell>{t('rosterLms.email')}</TableHeaderCell>
                    <TableHeaderCell>{t('rosterLms.status')}</TableHeaderCell>
                  </tr>
                </TableHead>
                <TableBody>
                  {members.map((m) => (
                    <TableRow key={m.candidateId}>
                      <TableCell className="font-medium">{m.name}</TableCell>
                      <TableCell>{m.candidateId}</TableCell>
                      <TableCell>{m.email ?? '—'}</TableCell>
                      <TableCell>
                        <Badge tone={m.onRoster ? 'neutral' : 'brand'}>
                          {m.onRoster ? t('rosterLms.onRoster') : t('rosterLms.new')}
                        </Badge>
                      </TableCell>
                    </TableRow>
                  ))}
                </TableBody>
              </Table>
            )}
          </>
        )}
      </CardBody>
    </Card>
  );
}
