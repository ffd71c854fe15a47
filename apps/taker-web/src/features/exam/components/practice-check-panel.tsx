import type { PracticeCheck as Check, Verdict } from '@exam/domain/practice';
import { Button } from '@exam/ui/button';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatNumber } from '../../../i18n/format.ts';
import { translateServerMessage } from '../../../i18n/server-messages.ts';
import { ApiError } from '../../../lib/api-client.ts';
import { checkAnswer } from '../api/check-answer.ts';

const TONES: Record<Verdict, string> = {
  correct: 'text-success',
  partial: 'text-yellow-800',
  incorrect: 'text-danger',
  unanswered: 'text-muted',
  ungraded: 'text-muted',
};

const points = (value: number) => formatNumber(Math.round(value * 100) / 100);

function Outcome({ check }: { check: Check }) {
  const { t } = useTranslation('exam');
  const right = check.parts?.filter(Boolean).length ?? 0;
  return (
    <>
      <p className={`font-medium ${TONES[check.verdict]}`}>
        {t(`practice.verdict.${check.verdict}`)}
        {check.points !== null && check.verdict !== 'unanswered' && (
          <>
            {' '}
            ·{' '}
            {t('practice.points', {
              points: points(check.points),
              max: points(check.maxPoints),
              count: check.maxPoints,
            })}
          </>
        )}
      </p>
      {check.parts && check.parts.length > 0 && (
        <p className="text-muted">{t('practice.parts', { right, total: check.parts.length })}</p>
      )}
      {check.feedback.map((text, i) => (
        <p key={i} className="whitespace-pre-wrap text-ink">
          {text}
        </p>
      ))}
      {check.correctAnswer !== null && (
        <p className="text-success">{t('practice.correctAnswer', { answer: check.correctAnswer })}</p>
      )}
    </>
  );
}

/**
 * A practice exam's Check answer under a question's input (docs/product.md#practice-and-review): the verdict, points
 * and the creator's feedback are announced in a live region. The outcome shown is that of the answer checked; once
 * the candidate changes the answer it goes, so a verdict never sits beside an answer it was not given for.
 */
export function PracticeCheckPanel({
  index,
  answer,
  attempt,
}: {
  index: number;
  answer: string;
  attempt: { attemptId: string; token: string };
}) {
  const { t } = useTranslation('exam');
  const [checking, setChecking] = useState(false);
  const [outcome, setOutcome] = useState<{ answer: string; check?: Check; error?: string } | null>(null);

  const run = async () => {
    setChecking(true);
    try {
      setOutcome({ answer, check: await checkAnswer(attempt, index, answer) });
    } catch (error) {
      const message = error instanceof ApiError ? translateServerMessage(error.userMessage) : t('practice.failed');
      setOutcome({ answer, error: message });
    } finally {
      setChecking(false);
    }
  };
  const current = outcome?.answer === answer ? outcome : null;

  return (
    <div className="mt-3 space-y-2">
      <Button
        size="sm"
        variant="secondary"
        onClick={() => void run()}
        disabled={checking}
        aria-describedby={`q-${index}-title`}
        data-testid={`practice-check-${index}`}
      >
        {checking ? t('practice.checking') : t('practice.check')}
      </Button>
      <div
        role="status"
        aria-live="polite"
        className="space-y-1 text-sm empty:hidden"
        data-testid={`practice-outcome-${index}`}
      >
        {current?.check && <Outcome check={current.check} />}
        {current?.error && <p className="text-danger">{current.error}</p>}
      </div>
    </div>
  );
}
