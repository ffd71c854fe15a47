import type { Exam } from '@exam/domain/exam';
import { StatCard } from '@exam/ui/card';
import { FileText, Radio, Send, Users } from 'lucide-react';
import type { ExamResultsSummary } from '../api/get-results-summary.ts';
import { useTranslation } from 'react-i18next';

/** The four dashboard cards. Submissions come from results-service; without it they read '—', never a guess. */
export function ExamStats({ exams, summary }: { exams: Exam[]; summary: ExamResultsSummary[] | undefined }) {
  const { t } = useTranslation('exams');
  const published = exams.filter((e) => !e.isDraft);
  const live = published.filter((e) => e.isLive).length;
  const drafts = exams.length - published.length;
  const submissions = summary ? summary.reduce((sum, s) => sum + s.submitted, 0) : '—';
  return (
    <section aria-label={t('examStats.summary')} className="grid gap-4 sm:grid-cols-2 lg:grid-cols-4">
      <StatCard label={t('examStats.liveExams')} value={live} icon={<Radio aria-hidden />} />
      <StatCard label={t('examStats.publishedExams')} value={published.length} icon={<Send aria-hidden />} />
      <StatCard label={t('examStats.draftExams')} value={drafts} icon={<FileText aria-hidden />} />
      <StatCard label={t('examStats.totalSubmissions')} value={submissions} icon={<Users aria-hidden />} />
    </section>
  );
}
