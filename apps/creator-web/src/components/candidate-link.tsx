import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { paths } from '../config/paths.ts';
import { useTranslation } from 'react-i18next';

/**
 * A candidate's name wherever candidates are listed, leading to their attempts across the creator's exams
 * (/creator/candidates/{candidateId}). Without a candidate ID there is nothing to look them up by.
 */
export function CandidateLink({ studentId, children }: { studentId: string; children: ReactNode }) {
  const { t } = useTranslation('common');
  if (!studentId.trim()) return <>{children}</>;
  return (
    <Link
      to={paths.candidate(studentId)}
      className="text-ink underline-offset-2 hover:text-brand-700 hover:underline"
      title={t('candidateLink.allResultsOfCandidate', { studentId })}
    >
      {children}
    </Link>
  );
}
