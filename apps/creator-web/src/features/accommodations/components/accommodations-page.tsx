import type { Override } from '@exam/domain/cohort';
import type { Exam } from '@exam/domain/exam';
import { Button } from '@exam/ui/button';
import { Card, CardHeader } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { localTimeZone } from '@exam/ui/lib/local-time';
import { PageHeader } from '@exam/ui/page-header';
import { PageSpinner } from '@exam/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { ArrowLeft, FileQuestion, Pencil, UserCog } from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useAccommodationsExam, useOverrides } from '../api/overrides.ts';
import { durationChange } from '../lib/duration.ts';
import { draftOf, emptyDraft, OverrideForm, type OverrideDraft } from './override-form.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { examName } from '../../../lib/display-names.ts';

function BackToDashboard({ variant = 'ghost' }: { variant?: 'ghost' | 'primary' }) {
  return (
    <Button asChild variant={variant} size={variant === 'ghost' ? 'sm' : 'md'}>
      <Link to={paths.dashboard}>
        <ArrowLeft aria-hidden className="h-4 w-4" /> Back to Dashboard
      </Link>
    </Button>
  );
}

/** The exam's window in a line: 'Always open', 'Opens …', 'Opens … · Closes …'. */
function windowText(window: { opensAt: string | null; closesAt: string | null }, fallback: string): string {
  const parts = [
    window.opensAt ? `Opens ${formatDateTime(window.opensAt)}` : null,
    window.closesAt ? `Closes ${formatDateTime(window.closesAt)}` : null,
  ].filter(Boolean);
  return parts.length > 0 ? parts.join(' · ') : fallback;
}

function OverridesTable({
  exam,
  overrides,
  onEdit,
}: {
  exam: Exam;
  overrides: Override[];
  onEdit: (o: Override) => void;
}) {
  return (
    <Card>
      <CardHeader title="Accommodations" description={`One row per candidate ID; times are in ${localTimeZone()}.`} />
      {overrides.length === 0 ? (
        <EmptyState icon={<UserCog aria-hidden />} title="No accommodations yet" />
      ) : (
        <Table aria-label="Accommodations">
          <TableHead>
            <tr>
              {['Candidate ID', 'Extra minutes', 'Time factor', 'Duration', 'Own window', 'Attempts'].map((h) => (
                <TableHeaderCell key={h}>{h}</TableHeaderCell>
              ))}
              <TableHeaderCell className="text-right">Actions</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {overrides.map((o) => (
              <TableRow key={o.studentId} data-testid="override-row">
                <TableCell className="font-medium">{o.studentId}</TableCell>
                <TableCell className="tabular-nums">
                  {o.extraMinutes === null ? '—' : `+${o.extraMinutes} min`}
                </TableCell>
                <TableCell className="tabular-nums">{o.timeFactor === null ? '—' : `×${o.timeFactor}`}</TableCell>
                <TableCell className="tabular-nums">{durationChange(exam, o) ?? 'No timer'}</TableCell>
                <TableCell>{windowText(o, "The exam's")}</TableCell>
                <TableCell className="tabular-nums">
                  {o.attemptsAllowed ?? `${exam.attemptsAllowed} (the exam's)`}
                </TableCell>
                <TableCell className="text-right">
                  <Button variant="ghost" size="sm" onClick={() => onEdit(o)} aria-label={`Edit ${o.studentId}`}>
                    <Pencil aria-hidden className="h-4 w-4" /> Edit
                  </Button>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
    </Card>
  );
}

/** /creator/exam-accommodations/{examId}: extra time, an own window or more attempts for single candidates. */
export function AccommodationsPage({ examId }: { examId: string }) {
  const exam = useAccommodationsExam(examId);
  const overrides = useOverrides(examId);
  const [draft, setDraft] = useState<OverrideDraft>(emptyDraft);

  if (exam.isPending) return <PageSpinner label="Loading accommodations…" />;
  if (exam.isError) {
    return (
      <Card className="mx-auto max-w-lg">
        <EmptyState
          icon={<FileQuestion aria-hidden />}
          title="Exam not found"
          action={<BackToDashboard variant="primary" />}
        />
      </Card>
    );
  }
  const { data } = exam;
  const timer = data.timerEnabled ? `${data.timerMinutes} minutes` : 'no timer';
  return (
    <>
      <PageHeader
        back={<BackToDashboard />}
        title={`Accommodations: ${examName(data.title)}`}
        description={`The exam: ${timer}, ${windowText(data, 'always open')}, ${data.attemptsAllowed} attempt${data.attemptsAllowed === 1 ? '' : 's'}.`}
        actions={
          <Button asChild variant="secondary">
            <Link to={paths.editExam(examId, data.isDraft ? 'draft' : 'published')}>
              <Pencil aria-hidden className="h-4 w-4" /> Edit exam
            </Link>
          </Button>
        }
      />
      <div className="flex flex-col gap-6">
        <OverrideForm exam={data} draft={draft} onDraftChange={setDraft} />
        {overrides.isPending ? (
          <PageSpinner label="Loading accommodations…" />
        ) : overrides.isError ? (
          <p role="alert" className="text-sm text-danger">
            {userMessageOf(overrides.error)}
          </p>
        ) : (
          <OverridesTable exam={data} overrides={overrides.data} onEdit={(o) => setDraft(draftOf(o))} />
        )}
      </div>
    </>
  );
}
