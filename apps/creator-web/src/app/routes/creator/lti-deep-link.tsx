import type { Exam } from '@exam/domain/exam';
import { PageHeader } from '@exam/ui/page-header';
import { PageSpinner } from '@exam/ui/spinner';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation } from 'react-router';
import { useMyExams } from '../../../features/exams/api/get-exams.ts';
import { respondDeepLink } from '../../../features/lti/api/manage-lti.ts';
import { DeepLinkPicker } from '../../../features/lti/components/deep-link-picker.tsx';
import { postForm, ticketFromHash } from '../../../features/lti/lib/auto-post.ts';
import { userMessageOf } from '../../../lib/api-client.ts';

/**
 * Deep Linking 2.0 from the LMS: the instructor picks one of their exams; exam-service signs the response, and the
 * page posts it to the LMS's return URL, which adds the exam to the course.
 */
export function LtiDeepLinkRoute() {
  const { t } = useTranslation('lti');
  const ticket = ticketFromHash(useLocation().hash);
  const exams = useMyExams();
  const [choosing, setChoosing] = useState<string>();
  const [error, setError] = useState<string>();

  const choose = (exam: Exam) => {
    if (!ticket) return;
    setChoosing(exam.id);
    setError(undefined);
    respondDeepLink(ticket, exam.id)
      .then(({ returnUrl, jwt }) => postForm(returnUrl, { JWT: jwt }))
      .catch((failure: unknown) => {
        setChoosing(undefined);
        setError(userMessageOf(failure));
      });
  };

  return (
    <div className="flex flex-col gap-6">
      <PageHeader title={t('deepLink.title')} description={t('deepLink.intro')} />
      {!ticket && (
        <p role="alert" className="text-sm text-danger">
          {t('launch.noTicket')}
        </p>
      )}
      {error && (
        <p role="alert" className="text-sm text-danger">
          {error}
        </p>
      )}
      {exams.isPending ? (
        <PageSpinner />
      ) : (
        <DeepLinkPicker exams={exams.data ?? []} onChoose={choose} choosing={choosing} />
      )}
    </div>
  );
}
