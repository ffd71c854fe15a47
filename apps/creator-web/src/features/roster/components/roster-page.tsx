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
import {
  useAddRosterEntry,
  useInviteCandidates,
  useRemoveRosterEntry,
  useRoster,
  useUpdateRosterEntry,
} from '../api/roster-api.ts';
import { RosterEntryForm } from './roster-entry-form.tsx';
import { RosterImport } from './roster-import.tsx';

/** The roster of one exam: typed entries, CSV import, and invitations by e-mail (docs/product.md#rosters-and-invitations). */
export function RosterPage({ examId }: { examId: string }) {
  const roster = useRoster(examId);
  const add = useAddRosterEntry(examId);
  const update = useUpdateRosterEntry(examId);
  const remove = useRemoveRosterEntry(examId);
  const invite = useInviteCandidates(examId);
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [editing, setEditing] = useState<string | null>(null);

  const sendInvites = (ids?: string[]) =>
    invite.mutate(ids, {
      onSuccess: (r) => {
        toast.success(`Queued ${r.invited} invitation${r.invited === 1 ? '' : 's'}`);
        setSelected(new Set());
      },
      onError: (error) => toast.error(userMessageOf(error)),
    });
  const toggle = (id: string) =>
    setSelected((current) => {
      const next = new Set(current);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  if (roster.isPending) return <PageSpinner label="Loading roster…" />;
  if (roster.isError) return <EmptyState icon={<Users aria-hidden />} title={userMessageOf(roster.error)} />;
  const entries = roster.data;

  return (
    <div className="flex flex-col gap-6">
      <Card>
        <CardHeader title="Add a Candidate" />
        <CardBody>
          <RosterEntryForm
            submitLabel="Add"
            isPending={add.isPending}
            onSubmit={(entry, done) =>
              add.mutate(entry, {
                onSuccess: () => (toast.success('Candidate added'), done.onSuccess()),
                onError: done.onError,
              })
            }
          />
        </CardBody>
      </Card>
      <RosterImport examId={examId} />
      <Card>
        <CardHeader
          title={`Roster (${entries.length})`}
          description="Invitations carry a personal link that fills in the candidate's name and ID. Inviting again replaces the earlier link."
          actions={
            <div className="flex gap-2">
              <Button
                variant="secondary"
                disabled={selected.size === 0 || invite.isPending}
                onClick={() => sendInvites([...selected])}
              >
                <Mail aria-hidden className="h-4 w-4" /> Invite Selected ({selected.size})
              </Button>
              <Button disabled={entries.length === 0 || invite.isPending} onClick={() => sendInvites()}>
                <Mail aria-hidden className="h-4 w-4" /> Invite All
              </Button>
            </div>
          }
        />
        {entries.length === 0 ? (
          <EmptyState icon={<Users aria-hidden />} title="No candidates yet" />
        ) : (
          <Table aria-label="Roster">
            <TableHead>
              <tr>
                <TableHeaderCell>
                  <span className="sr-only">Select</span>
                </TableHeaderCell>
                {['Name', 'Candidate ID', 'E-mail', 'Invitation'].map((h) => (
                  <TableHeaderCell key={h}>{h}</TableHeaderCell>
                ))}
                <TableHeaderCell className="text-right">Actions</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {entries.map((entry) =>
                editing === entry.id ? (
                  <TableRow key={entry.id}>
                    <TableCell colSpan={6}>
                      <RosterEntryForm
                        initial={{ name: entry.name, candidateId: entry.candidateId, email: entry.email ?? '' }}
                        submitLabel="Save"
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
                        onSuccess: () => toast.success('Candidate removed'),
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
  const { entry } = props;
  return (
    <TableRow>
      <TableCell>
        <input
          type="checkbox"
          aria-label={`Select ${entry.name}`}
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
          <Badge tone="success">Invited {formatDateTime(entry.invitedAt)}</Badge>
        ) : (
          <Badge>{entry.email ? 'Not invited' : 'No e-mail'}</Badge>
        )}
      </TableCell>
      <TableCell>
        <div className="flex justify-end gap-1">
          <Button size="sm" variant="ghost" aria-label={`Edit ${entry.name}`} onClick={props.onEdit}>
            Edit
          </Button>
          <Button size="sm" variant="ghost" aria-label={`Remove ${entry.name}`} onClick={props.onRemove}>
            Remove
          </Button>
        </div>
      </TableCell>
    </TableRow>
  );
}
