import type { Exam } from '@exam/domain/exam';
import { Badge } from '@exam/ui/badge';
import { useTranslation } from 'react-i18next';
import { isShared } from '../lib/capabilities.ts';

/** The creator's role on an exam shared with them; nothing for their own exams. */
export function RoleBadge({ exam }: { exam: Pick<Exam, 'role'> }) {
  const { t } = useTranslation('sharing');
  if (!isShared(exam) || !exam.role) return null;
  const role = t(`roles.${exam.role}`);
  return (
    <Badge tone="info" title={t('roleBadge.label', { role })}>
      <span className="sr-only">{t('roleBadge.label', { role })}</span>
      <span aria-hidden>{role}</span>
    </Badge>
  );
}
