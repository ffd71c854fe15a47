import type { RegradeReport } from '@exam/domain/result';
import { Button } from '@exam/ui/button';
import { Dialog } from '@exam/ui/dialog';

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
  return (
    <Dialog
      open={report !== null}
      onOpenChange={(open) => !open && onKeep()}
      title="Regrade submissions?"
      description={report ? `${report.changed} results change: +${report.up} up, −${report.down} down` : ''}
      footer={
        <>
          <Button variant="secondary" onClick={onKeep} disabled={isPending}>
            Keep current scores
          </Button>
          <Button onClick={onApply} disabled={isPending}>
            Apply regrade
          </Button>
        </>
      }
    >
      <ul aria-label="Questions that change" className="flex flex-col gap-1 text-sm">
        {report?.questions
          .filter((q) => q.changed > 0)
          .map((q) => (
            <li key={q.questionIndex}>
              Q{q.questionIndex + 1} {q.title}: {q.changed} results (+{q.up} up, −{q.down} down)
            </li>
          ))}
      </ul>
      {report && report.testsRerun > 0 && (
        <p className="mt-3 text-sm" data-testid="regrade-tests-rerun">
          {report.testsRerun} coding answers run against the changed tests again; they show as awaiting grading until
          their verdicts arrive.
        </p>
      )}
      <p className="mt-3 text-xs text-muted">A grader&apos;s marks are kept either way.</p>
    </Dialog>
  );
}
