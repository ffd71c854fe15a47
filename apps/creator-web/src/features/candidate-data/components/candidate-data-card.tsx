import type { DataErasure } from '@exam/domain/privacy';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card } from '@exam/ui/card';
import { ConfirmDialog } from '@exam/ui/dialog';
import { Field } from '@exam/ui/field';
import { Input } from '@exam/ui/input';
import { Download, Trash2 } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { formatDateTime } from '../../../lib/format-date.ts';
import { useEraseCandidate, useErasures, useExportCandidate } from '../api/candidate-data.ts';

/**
 * A candidate's data on request (the exam's owner): export everything held about them as a ZIP, or erase it in every
 * service after typing their candidate ID again; below, the exam's erasures (on request and by the retention period)
 * with the services still pending.
 */
export function CandidateDataCard({ examId }: { examId: string }) {
  const { t } = useTranslation('results');
  const [candidateId, setCandidateId] = useState('');
  const [confirmText, setConfirmText] = useState('');
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  const [status, setStatus] = useState<string>();
  const exporter = useExportCandidate(examId);
  const eraser = useEraseCandidate(examId);
  const erasures = useErasures(examId);
  const id = candidateId.trim();

  function requireId(): boolean {
    setStatus(undefined);
    if (id) return (setError(undefined), true);
    setError(t('candidateData.candidateIdIsRequired'));
    return false;
  }

  function onExport(event: FormEvent) {
    event.preventDefault();
    if (!requireId()) return;
    exporter.mutate(id, {
      onSuccess: (fileName) => setStatus(t('candidateData.exported', { fileName })),
      onError: (failure) => setError(userMessageOf(failure)),
    });
  }

  function onErase() {
    eraser.mutate(id, {
      onSuccess: (erasure) => {
        setConfirming(false);
        setConfirmText('');
        setStatus(erasure.status === 'complete' ? t('candidateData.erased') : t('candidateData.erasedPending'));
      },
      onError: (failure) => {
        setConfirming(false);
        setError(userMessageOf(failure));
      },
    });
  }

  return (
    <Card className="mt-6 p-4">
      <h2 className="text-base font-semibold text-ink">{t('candidateData.title')}</h2>
      <p className="mt-1 text-sm text-muted">{t('candidateData.intro')}</p>
      <form className="mt-3 flex flex-wrap items-end gap-3" onSubmit={onExport} noValidate>
        <Field label={t('candidateData.candidateId')} error={error} className="min-w-56">
          <Input name="dataCandidateId" value={candidateId} onChange={(e) => setCandidateId(e.target.value)} />
        </Field>
        <Button type="submit" variant="secondary" disabled={exporter.isPending}>
          <Download aria-hidden className="h-4 w-4" /> {t('candidateData.export')}
        </Button>
        <Button
          type="button"
          variant="danger"
          onClick={() => requireId() && setConfirming(true)}
          disabled={eraser.isPending}
        >
          <Trash2 aria-hidden className="h-4 w-4" /> {t('candidateData.erase')}
        </Button>
      </form>
      {status && (
        <p role="status" className="mt-3 text-sm text-success">
          {status}
        </p>
      )}
      <ConfirmDialog
        open={confirming}
        onOpenChange={(open) => {
          setConfirming(open);
          if (!open) setConfirmText('');
        }}
        title={t('candidateData.confirmTitle', { candidateId: id })}
        description={t('candidateData.confirmDescription')}
        confirmLabel={t('candidateData.confirmErase')}
        destructive
        isPending={eraser.isPending || confirmText.trim() !== id}
        onConfirm={onErase}
      >
        <Field label={t('candidateData.typeToConfirm', { candidateId: id })}>
          <Input name="confirmCandidateId" value={confirmText} onChange={(e) => setConfirmText(e.target.value)} />
        </Field>
      </ConfirmDialog>
      <ErasureList erasures={erasures.data?.erasures ?? []} />
    </Card>
  );
}

function ErasureList({ erasures }: { erasures: DataErasure[] }) {
  const { t } = useTranslation('results');
  if (erasures.length === 0) return <p className="mt-4 text-sm text-muted">{t('candidateData.noErasures')}</p>;
  return (
    <section className="mt-4" aria-labelledby="erasures-heading">
      <h3 id="erasures-heading" className="text-sm font-semibold text-ink">
        {t('candidateData.erasures')}
      </h3>
      <ul className="mt-2 divide-y divide-line text-sm" data-testid="erasure-list">
        {erasures.map((erasure) => {
          const pending = Object.entries(erasure.services)
            .filter(([, outcome]) => outcome.status !== 'done')
            .map(([service]) => service);
          return (
            <li key={erasure.id} className="flex flex-wrap items-center gap-2 py-2">
              <span className="text-ink">{formatDateTime(erasure.requestedAt)}</span>
              <span className="text-muted">
                {erasure.reason === 'request'
                  ? t('candidateData.onRequest', { count: erasure.attemptCount })
                  : t('candidateData.byRetention', { count: erasure.attemptCount })}
              </span>
              {erasure.status === 'complete' ? (
                <Badge tone="success">{t('candidateData.complete')}</Badge>
              ) : (
                <Badge tone="warning">{t('candidateData.pending', { services: pending.join(', ') })}</Badge>
              )}
            </li>
          );
        })}
      </ul>
    </section>
  );
}
