import type { RegradeReport } from '@exam/domain/result';
import { Button } from '@exam/ui/button';
import { Dialog } from '@exam/ui/dialog';
import { useTranslation } from 'react-i18next';

/** "{changed} results change: +{up} up, −{down} down" and one line per question that changes. */
export function RegradeDialog({
  report,
  isPending,
  onApply,
  onKeep,
}: {
  report: RegradeReport | null;
  isPending: boolean;
  onApply: () => void;
  onKeep: () => void;
}) {
  const { t } = useTranslation('editor');
  return (
    <Dialog
      open={report !== null}
      onOpenChange={(open) => !open && onKeep()}
      title={t('regradeDialog.regradeSubmissions')}
      description={
        report
          ? t('regradeDialog.changedResultsChangeUp', { changed: report.changed, up: report.up, down: report.down })
          : ''
      }
      footer={
        <>
          <Button variant="secondary" onClick={onKeep} disabled={isPending}>
            {t('regradeDialog.keepCurrentScores')}
          </Button>
          <Button onClick={onApply} disabled={isPending}>
            {t('regradeDialog.applyRegrade')}
          </Button>
        </>
      }
    >
      <ul aria-label={t('regradeDialog.questionsThatChange')} className="flex flex-col gap-1 text-sm">
        {report?.questions
          .filter((q) => q.changed > 0)
          .map((q) => (
            <li key={q.questionIndex}>
              {t('regradeDialog.qValueTitleChanged', {
                value: q.questionIndex + 1,
                title: q.title,
                changed: q.changed,
                up: q.up,
                down: q.down,
              })}
            </li>
          ))}
      </ul>
      {report && report.testsRerun > 0 && (
        <p className="mt-3 text-sm" data-testid="regrade-tests-rerun">
          {t('regradeDialog.testsrerunCodingAnswersRun', { testsRerun: report.testsRerun })}
        </p>
      )}
      <p className="mt-3 text-xs text-muted">{t('regradeDialog.aGraderSMarks')}</p>
    </Dialog>
  );
}
