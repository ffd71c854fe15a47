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
import { useAccommodationsExam, useOverrides } from '../api/manage-overrides.ts';
import { durationChange } from '../lib/duration.ts';
import { draftOf, emptyDraft, OverrideForm, type OverrideDraft } from './override-form.tsx';
import { formatDateTime } from '../../../lib/format-date.ts';
import { examName } from '../../../lib/display-names.ts';
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../i18n/index.ts';

function BackToDashboard({ variant = 'ghost' }: { variant?: 'ghost' | 'primary' }) {
  const { t } = useTranslation('accommodations');
  return (
    <Button asChild variant={variant} size={variant === 'ghost' ? 'sm' : 'md'}>
      <Link to={paths.dashboard}>
        <ArrowLeft aria-hidden className="h-4 w-4" /> {t('accommodationsPage.backToDashboard')}
      </Link>
    </Button>
  );
}

/** The exam's window in a line: 'Always open', 'Opens …', 'Opens … · Closes …'. */
function windowText(window: { opensAt: string | null; closesAt: string | null }, fallback: string): string {
  const parts = [
    window.opensAt ? i18n.t('accommodations:accommodationsPage.opensAt', { at: formatDateTime(window.opensAt) }) : null,
    window.closesAt
      ? i18n.t('accommodations:accommodationsPage.closesAt', { at: formatDateTime(window.closesAt) })
      : null,
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
  const { t } = useTranslation('accommodations');
  return (
    <Card>
      <CardHeader
        title={t('accommodationsPage.accommodations')}
        description={t('accommodationsPage.oneRowPerCandidate', { localTimeZone: localTimeZone() })}
      />
      {overrides.length === 0 ? (
        <EmptyState icon={<UserCog aria-hidden />} title={t('accommodationsPage.noAccommodationsYet')} />
      ) : (
        <Table aria-label={t('accommodationsPage.accommodations')}>
          <TableHead>
            <tr>
              {[
                t('accommodationsPage.candidateId'),
                t('accommodationsPage.extraMinutes'),
                t('accommodationsPage.timeFactor'),
                t('accommodationsPage.duration'),
                t('accommodationsPage.ownWindow'),
                t('accommodationsPage.attempts'),
              ].map((h) => (
                <TableHeaderCell key={h}>{h}</TableHeaderCell>
              ))}
              <TableHeaderCell className="text-right">{t('accommodationsPage.actions')}</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {overrides.map((o) => (
              <TableRow key={o.studentId} data-testid="override-row">
                <TableCell className="font-medium">{o.studentId}</TableCell>
                <TableCell className="tabular-nums">
                  {o.extraMinutes === null
                    ? '—'
                    : t('accommodationsPage.extraminutesMin', { extraMinutes: o.extraMinutes })}
                </TableCell>
                <TableCell className="tabular-nums">{o.timeFactor === null ? '—' : `×${o.timeFactor}`}</TableCell>
                <TableCell className="tabular-nums">
                  {durationChange(exam, o) ?? t('accommodationsPage.noTimer')}
                </TableCell>
                <TableCell>{windowText(o, t('accommodationsPage.theExamS'))}</TableCell>
                <TableCell className="tabular-nums">
                  {o.attemptsAllowed ??
                    t('accommodationsPage.attemptsallowedTheExamS', { attemptsAllowed: exam.attemptsAllowed })}
                </TableCell>
                <TableCell className="text-right">
                  <Button
                    variant="ghost"
                    size="sm"
                    onClick={() => onEdit(o)}
                    aria-label={t('accommodationsPage.editStudentid', { studentId: o.studentId })}
                  >
                    <Pencil aria-hidden className="h-4 w-4" /> {t('accommodationsPage.edit')}
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
  const { t } = useTranslation('accommodations');
  const exam = useAccommodationsExam(examId);
  const overrides = useOverrides(examId);
  const [draft, setDraft] = useState<OverrideDraft>(emptyDraft);

  if (exam.isPending) return <PageSpinner label={t('accommodationsPage.loadingAccommodations')} />;
  if (exam.isError) {
    return (
      <Card className="mx-auto max-w-lg">
        <EmptyState
          icon={<FileQuestion aria-hidden />}
          title={t('accommodationsPage.examNotFound')}
          action={<BackToDashboard variant="primary" />}
        />
      </Card>
    );
  }
  const { data } = exam;
  const timer = data.timerEnabled
    ? t('accommodationsPage.timerminutesMinutes', { timerMinutes: data.timerMinutes })
    : t('accommodationsPage.noTimer2');
  return (
    <>
      <PageHeader
        back={<BackToDashboard />}
        title={t('accommodationsPage.accommodationsExamname', { examName: examName(data.title) })}
        description={t('accommodationsPage.examSummary', {
          timer,
          window: windowText(data, t('accommodationsPage.alwaysOpen')),
          count: data.attemptsAllowed,
        })}
        actions={
          <Button asChild variant="secondary">
            <Link to={paths.editExam(examId, data.isDraft ? 'draft' : 'published')}>
              <Pencil aria-hidden className="h-4 w-4" /> {t('accommodationsPage.editExam')}
            </Link>
          </Button>
        }
      />
      <div className="flex flex-col gap-6">
        <OverrideForm exam={data} draft={draft} onDraftChange={setDraft} />
        {overrides.isPending ? (
          <PageSpinner label={t('accommodationsPage.loadingAccommodations')} />
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
