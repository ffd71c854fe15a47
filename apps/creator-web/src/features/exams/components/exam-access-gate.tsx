import type { Exam } from '@exam/domain/exam';
import { CAPABILITY_REFUSALS, type ExamCapability } from '@exam/domain/roles';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { PageSpinner } from '@exam/ui/spinner';
import { FileQuestion, ShieldAlert } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { useTranslation } from 'react-i18next';
import { paths } from '../../../config/paths.ts';
import { examName } from '../../../lib/display-names.ts';
import { useExam } from '../api/get-exams.ts';
import { examCan } from '../lib/capabilities.ts';
import { ExamNav } from './exam-nav.tsx';

function BackToDashboard() {
  const { t } = useTranslation('sharing');
  return (
    <Button asChild>
      <Link to={paths.dashboard}>{t('gate.backToDashboard')}</Link>
    </Button>
  );
}

/**
 * An exam's page as the creator's role allows it: the exam's menu above the page when the role includes
 * `capability`, a plain refusal naming the role when it does not (a page opened by its URL). The services refuse
 * the page's calls the same way. While the exam loads, or when it cannot be read, a page given as elements renders
 * as before (its own calls start at once and say "not found" themselves); a page that needs the exam (a function)
 * waits for it, and says "not found" for an exam that is not the creator's in any role.
 */
export function ExamAccessGate({
  examId,
  capability,
  children,
}: {
  examId: string;
  capability: ExamCapability;
  children: ReactNode | ((exam: Exam) => ReactNode);
}) {
  const { t } = useTranslation('sharing');
  const exam = useExam(examId);
  const needsExam = typeof children === 'function';
  // One tree shape in every state (menu slot, then the page), so the page is not mounted afresh when the exam loads.
  if (exam.isPending) return needsExam ? <PageSpinner label={t('gate.loading')} /> : withMenu(null, children);
  if (exam.isError) {
    if (!needsExam) return withMenu(null, children);
    return (
      <Card className="mx-auto max-w-lg">
        <EmptyState
          icon={<FileQuestion aria-hidden />}
          title={t('gate.notFound')}
          description={t('gate.notFoundHint')}
          action={<BackToDashboard />}
        />
      </Card>
    );
  }
  const data = exam.data;
  if (!examCan(data, capability)) {
    return (
      <>
        <ExamNav exam={data} />
        <Card className="mx-auto flex max-w-lg flex-col items-center gap-3 p-8 text-center">
          <ShieldAlert aria-hidden className="h-8 w-8 text-muted" />
          <h1 className="text-lg font-semibold text-ink">{t('gate.refusedTitle')}</h1>
          <p role="alert" className="text-sm text-muted">
            {t('gate.refusedBody', {
              role: t(`roles.${data.role ?? 'owner'}`),
              title: examName(data.title),
              reason: CAPABILITY_REFUSALS[capability],
            })}
          </p>
          <BackToDashboard />
        </Card>
      </>
    );
  }
  return withMenu(<ExamNav exam={data} />, typeof children === 'function' ? children(data) : children);
}

function withMenu(menu: ReactNode, page: ReactNode) {
  return (
    <>
      {menu}
      {page}
    </>
  );
}
