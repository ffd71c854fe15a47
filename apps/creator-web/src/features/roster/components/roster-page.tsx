import type { RosterEntry } from '@exam/domain/roster';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { PageSpinner } from '@exam/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { toast } from '@exam/ui/toaster';
import { Mail, Users } from 'lucide-react';
import { useState } from 'react';
import { userMessageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useAddRosterEntry, useRemoveRosterEntry, useRoster, useUpdateRosterEntry } from '../api/manage-roster.ts';
import { InvitationDialog } from './invitation-dialog.tsx';
import { RosterAdmissionCard } from './roster-admission.tsx';
import { RosterEntryForm } from './roster-entry-form.tsx';
import { RosterImport } from './roster-import.tsx';
import { RosterLmsImport } from './roster-lms-import.tsx';
import { useTranslation } from 'react-i18next';

/** The roster of one exam: typed entries, CSV import, and invitations by e-mail (docs/product.md#rosters-and-invitations). */
export function RosterPage({ examId }: { examId: string }) {
  const { t } = useTranslation('roster');
  const roster = useRoster(examId);
  const add = useAddRosterEntry(examId);
  const update = useUpdateRosterEntry(examId);
  const remove = useRemoveRosterEntry(examId);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);
  // Inviting goes through the dialog (preview, message, confirmation): undefined closed, 'all' or the chosen ids.
  const [inviting, setInviting] = useState<'all' | string[] | undefined>(undefined);
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  if (roster.isPending) return <PageSpinner label={t('rosterPage.loadingRoster')} />;
  if (roster.isError) return <EmptyState icon={<Users aria-hidden />} title={userMessageOf(roster.error)} />;
  const { entries, rosterAdmission } = roster.data;

  return (
    <div className="flex flex-col gap-6">
      <RosterAdmissionCard examId={examId} mode={rosterAdmission} entries={entries} />
      <Card>
        <CardHeader title={t('rosterPage.addACandidate')} />
        <CardBody>
          <RosterEntryForm
            submitLabel={t('rosterPage.add')}
            isPending={add.isPending}
            onSubmit={(entry, done) =>
              add.mutate(entry, {
                onSuccess: () => (toast.success(t('rosterPage.candidateAdded')), done.onSuccess()),
                onError: done.onError,
              })
            }
          />
        </CardBody>
      </Card>
      <RosterLmsImport examId={examId} />
      <RosterImport examId={examId} />
      <Card>
        <CardHeader
          title={t('rosterPage.rosterLength', { length: entries.length })}
          description={t('rosterPage.invitationsCarryAPersonal')}
          actions={
            <div className="flex gap-2">
              <Button variant="secondary" disabled={selected.size === 0} onClick={() => setInviting([...selected])}>
                <Mail aria-hidden className="h-4 w-4" /> {t('rosterPage.inviteSelectedSize', { size: selected.size })}
              </Button>
              <Button disabled={!entries.some((e) => e.email)} onClick={() => setInviting('all')}>
                <Mail aria-hidden className="h-4 w-4" /> {t('rosterPage.inviteAll')}
              </Button>
            </div>
          }
        />
        {entries.length === 0 ? (
          <EmptyState icon={<Users aria-hidden />} title={t('rosterPage.noCandidatesYet')} />
        ) : (
          <Table aria-label={t('rosterPage.roster')}>
            <TableHead>
              <tr>
                <TableHeaderCell>
                  <span className="sr-only">{t('rosterPage.select')}</span>
                </TableHeaderCell>
                {[
                  t('rosterPage.name'),
                  t('rosterPage.candidateId'),
                  t('rosterPage.email'),
                  t('rosterPage.invitation'),
                ].map((h) => (
                  <TableHeaderCell key={h}>{h}</TableHeaderCell>
                ))}
                <TableHeaderCell className="text-right">{t('rosterPage.actions')}</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {entries.map((entry) =>
                editing === entry.id ? (
                  <TableRow key={entry.id}>
                    <TableCell colSpan={6}>
                      <RosterEntryForm
                        initial={{ name: entry.name, candidateId: entry.candidateId, email: entry.email ?? '' }}
                        submitLabel={t('rosterPage.save')}
                        isPending={update.isPending}
                        onCancel={() => setEditing(null)}
                        onSubmit={(values, done) =>
                          update.mutate(
                            { id: entry.id, ...values },
                            { onSuccess: () => setEditing(null), onError: done.onError },
                          )
                        }
                      />
                    </TableCell>
                  </TableRow>
                ) : (
                  <EntryRow
                    key={entry.id}
                    entry={entry}
                    selected={selected.has(entry.id)}
                    onToggle={() => toggle(entry.id)}
                    onEdit={() => setEditing(entry.id)}
                    onRemove={() =>
                      remove.mutate(entry.id, {
                        onSuccess: () => toast.success(t('rosterPage.candidateRemoved')),
                        onError: (error) => toast.error(userMessageOf(error)),
                      })
                    }
                  />
                ),
              )}
            </TableBody>
          </Table>
        )}
      </Card>
      <InvitationDialog
        examId={examId}
        open={inviting !== undefined}
        onOpenChange={(open) => !open && setInviting(undefined)}
        entryIds={inviting === 'all' ? undefined : inviting}
        onSent={() => setSelected(new Set())}
      />
    </div>
  );
}

function EntryRow(props: {
  entry: RosterEntry;
  selected: boolean;
  onToggle: () => void;
  onEdit: () => void;
  onRemove: () => void;
}) {
  const { t } = useTranslation('roster');
  const { entry } = props;
  return (
    <TableRow>
      <TableCell>
        <input
          type="checkbox"
          aria-label={t('rosterPage.selectName', { name: entry.name })}
          checked={props.selected}
          disabled={!entry.email}
          onChange={props.onToggle}
        />
      </TableCell>
      <TableCell className="font-medium">{entry.name}</TableCell>
      <TableCell>{entry.candidateId}</TableCell>
      <TableCell>{entry.email ?? <span className="text-muted">—</span>}</TableCell>
      <TableCell>
        {entry.invitedAt ? (
          <Badge tone="success">
            {t('rosterPage.invitedInvitedat', { invitedAt: formatDateTime(entry.invitedAt) })}
          </Badge>
        ) : (
          <Badge>{entry.email ? t('rosterPage.notInvited') : t('rosterPage.noEMail')}</Badge>
        )}
      </TableCell>
      <TableCell>
        <div className="flex justify-end gap-1">
          <Button
            size="sm"
            variant="ghost"
            aria-label={t('rosterPage.editName', { name: entry.name })}
            onClick={props.onEdit}
          >
            {t('rosterPage.edit')}
          </Button>
          <Button
            size="sm"
            variant="ghost"
            aria-label={t('rosterPage.removeName', { name: entry.name })}
            onClick={props.onRemove}
          >
            {t('rosterPage.remove')}
          </Button>
        </div>
      </TableCell>
    </TableRow>
  );
}
