import type { Exam } from '@exam/domain/exam';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { useTranslation } from 'react-i18next';

/** The creator's exams, each with a Choose button: the deep-linking picker's list. */
export function DeepLinkPicker({
  exams,
  onChoose,
  choosing,
}: {
  exams: Exam[];
  onChoose: (exam: Exam) => void;
  /** The exam being sent back to the LMS (every button waits meanwhile). */
  choosing: string | undefined;
}) {
  const { t } = useTranslation('lti');
  if (exams.length === 0) return <p className="text-sm text-muted">{t('deepLink.noExams')}</p>;
  return (
    <ul className="flex flex-col gap-3" aria-label={t('deepLink.title')}>
      {exams.map((exam) => (
        <li key={exam.id}>
          <Card className="flex items-center justify-between gap-4 p-4">
            <div className="flex min-w-0 items-center gap-2">
              <span className="truncate font-medium text-ink">{exam.title}</span>
              <Badge>{exam.isDraft ? t('deepLink.draft') : t('deepLink.published')}</Badge>
            </div>
            <Button
              onClick={() => onChoose(exam)}
              disabled={choosing !== undefined}
              aria-label={`${t('deepLink.choose')}: ${exam.title}`}
            >
              {choosing === exam.id ? t('deepLink.sending') : t('deepLink.choose')}
            </Button>
          </Card>
        </li>
      ))}
    </ul>
  );
}
