import { Button } from '@exam/ui/button';
import { Textarea } from '@exam/ui/input';
import { Check, Copy, Download } from 'lucide-react';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useProcessReceipt } from '../api/get-process-receipt.ts';
import { describeProcess } from '../lib/process-summary.ts';

const COPIED_FEEDBACK_MS = 2000;

function download(receipt: string, attemptId: string) {
  const url = URL.createObjectURL(new Blob([receipt], { type: 'text/plain' }));
  const link = document.createElement('a');
  link.href = url;
  link.download = `exam-receipt-${attemptId}.txt`;
  document.body.appendChild(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(url);
}

/**
 * The completion page's account of how the candidate wrote their answers, with the signed receipt they can keep
 * and show the exam's creator (who verifies it on the result page). Shows nothing while it loads or when the
 * platform cannot give it: it is the candidate's evidence, never a condition of their submission.
 */
export function ProcessReceipt({ attemptId }: { attemptId: string }) {
  const { t } = useTranslation('results');
  const { data } = useProcessReceipt(attemptId);
  const [copied, setCopied] = useState(false);
  useEffect(() => {
    if (!copied) return;
    const timer = setTimeout(() => setCopied(false), COPIED_FEEDBACK_MS);
    return () => clearTimeout(timer);
  }, [copied]);
  if (!data) return null;
  const copy = () =>
    void navigator.clipboard
      ?.writeText(data.receipt)
      .then(() => setCopied(true))
      .catch(() => undefined);
  return (
    <section
      aria-labelledby="process-receipt-title"
      className="mt-6 rounded-lg border border-line p-4 text-left"
      data-testid="process-receipt"
    >
      <h2 id="process-receipt-title" className="text-sm font-semibold text-ink">
        {t('receipt.title')}
      </h2>
      <p className="mt-1 text-sm text-ink" data-testid="process-summary">
        {describeProcess(data.summary, t)}
      </p>
      <p className="mt-2 text-xs text-muted">{t('receipt.explain')}</p>
      <label htmlFor="process-receipt-value" className="mt-3 block text-xs font-medium text-ink">
        {t('receipt.label')}
      </label>
      <Textarea
        id="process-receipt-value"
        readOnly
        value={data.receipt}
        rows={3}
        className="mt-1 break-all font-mono text-xs"
        onFocus={(event) => event.currentTarget.select()}
      />
      <div className="mt-2 flex justify-end gap-2">
        <Button size="sm" variant="secondary" onClick={copy}>
          {copied ? <Check aria-hidden className="h-4 w-4" /> : <Copy aria-hidden className="h-4 w-4" />}
          {t(copied ? 'receipt.copied' : 'receipt.copy')}
        </Button>
        <Button size="sm" variant="secondary" onClick={() => download(data.receipt, attemptId)}>
          <Download aria-hidden className="h-4 w-4" />
          {t('receipt.download')}
        </Button>
      </div>
    </section>
  );
}
