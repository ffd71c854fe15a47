import type { Exam } from '@exam/domain/exam';
import type { ExamCapability } from '@exam/domain/roles';
import { cn } from '@exam/ui/lib/cn';
import { NavLink } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';
import { examCan } from '../lib/capabilities.ts';
import { RoleBadge } from './role-badge.tsx';

type Item = { key: string; to: string; capability: ExamCapability; when?: (exam: Exam) => boolean };

const items = (exam: Exam): Item[] => [
  {
    key: 'overview',
    to: paths.examPublished(exam.id),
    capability: 'exam:view',
    when: (e) => !e.isDraft,
  },
  { key: 'edit', to: paths.editExam(exam.id, exam.isDraft ? 'draft' : 'published'), capability: 'exam:edit' },
  { key: 'roster', to: paths.examRoster(exam.id), capability: 'exam:edit' },
  { key: 'live', to: paths.examLive(exam.id), capability: 'live:view', when: (e) => !e.isDraft },
  { key: 'results', to: paths.examSubmissions(exam.id), capability: 'results:read', when: (e) => !e.isDraft },
  { key: 'insights', to: paths.examInsights(exam.id), capability: 'insights:read', when: (e) => !e.isDraft },
  { key: 'accommodations', to: paths.examAccommodations(exam.id), capability: 'live:control' },
  { key: 'sharing', to: paths.examSharing(exam.id), capability: 'exam:share' },
  { key: 'audit', to: paths.examAudit(exam.id), capability: 'audit:read' },
];

/**
 * The exam's own menu: its pages the creator's role opens (@exam/domain/roles), and the role when the exam is
 * shared with them. Pages outside the role are left out; the server refuses them anyway.
 */
export function ExamNav({ exam }: { exam: Exam }) {
  const { t } = useTranslation('sharing');
  const shown = items(exam).filter((item) => examCan(exam, item.capability) && (item.when?.(exam) ?? true));
  return (
    <nav aria-label={t('examNav.label')} className="mb-6 flex flex-wrap items-center gap-1 border-b border-line pb-2">
      {shown.map((item) => (
        <NavLink
          key={item.key}
          to={item.to}
          end
          className={({ isActive }) =>
            cn(
              'rounded-md px-3 py-1.5 text-sm font-medium text-muted hover:bg-canvas hover:text-ink',
              isActive && 'bg-brand-50 text-brand-700',
            )
          }
        >
          {t(`examNav.${item.key}` as 'examNav.edit')}
        </NavLink>
      ))}
      <span className="ml-auto">
        <RoleBadge exam={exam} />
      </span>
    </nav>
  );
}
