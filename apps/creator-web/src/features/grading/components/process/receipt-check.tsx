import type { ProcessSummary } from '@exam/domain/timeline';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Textarea } from '@exam/ui/input';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { cn } from '@exam/ui/lib/cn';
import { CheckCircle2, ShieldCheck, XCircle } from 'lucide-react';
import { useState, type FormEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../../lib/api-client.ts';
import { formatDateTime } from '../../../../lib/format-date.ts';
import { useVerifyReceipt, type VerifyReceiptResponse } from '../../api/verify-receipt.ts';

/** VerifyReceiptSchema's bound on a pasted receipt. */
const RECEIPT_MAX = 8000;

const ROWS = [
  'characters',
  'typedPercent',
  'pastedPercent',
  'assistantPercent',
  'autocompletePercent',
  'restoredPercent',
  'assistantMessages',
  'outsidePastesBlocked',
  'submittedAt',
] as const;

/** Compact cells: the check sits in the page's narrow side column. */
const CELL = 'px-1.5 py-2 first:pl-0 last:pr-0';

function Figures({ summary, record }: { summary: ProcessSummary; record: ProcessSummary | undefined }) {
  const { t } = useTranslation('process');
  const show = (of: ProcessSummary, row: (typeof ROWS)[number]) =>
    row === 'submittedAt'
      ? formatDateTime(of.submittedAt)
      : t(row.endsWith('Percent') ? 'receipt.percent' : 'receipt.count', { value: of[row] });
  return (
    <Table aria-label={t('receipt.figures')}>
      <TableHead>
        <tr>
          <TableHeaderCell scope="col" className={CELL}>
            {t('receipt.figure')}
          </TableHeaderCell>
          <TableHeaderCell scope="col" className={cn(CELL, 'whitespace-normal')}>
            {t('receipt.onReceipt')}
          </TableHeaderCell>
          {record && (
            <TableHeaderCell scope="col" className={cn(CELL, 'whitespace-normal')}>
              {t('receipt.onRecord')}
            </TableHeaderCell>
          )}
        </tr>
      </TableHead>
      <TableBody>
        {ROWS.map((row) => {
          const differs = record !== undefined && summary[row] !== record[row];
          return (
            <TableRow key={row} className={cn(differs && 'bg-amber-50')}>
              <TableHeaderCell scope="row" className={cn(CELL, 'whitespace-normal font-medium text-ink')}>
                {t(`receipt.row.${row}`)}
              </TableHeaderCell>
              <TableCell className={cn(CELL, 'tabular-nums')}>{show(summary, row)}</TableCell>
              {record && (
                <TableCell className={cn(CELL, 'tabular-nums')}>
                  {show(record, row)}
                  {differs && (
                    <span className="block text-xs font-medium text-amber-800">({t('receipt.differsMark')})</span>
                  )}
                </TableCell>
              )}
            </TableRow>
          );
        })}
      </TableBody>
    </Table>
  );
}

function Verdict({ result }: { result: VerifyReceiptResponse }) {
  const { t } = useTranslation('process');
  if (!result.valid) {
    return (
      <p role="status" className="flex items-start gap-2 text-sm font-medium text-danger">
        <XCircle aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
        {t(`receipt.invalid.${result.reason ?? 'unknown'}`)}
      </p>
    );
  }
  return (
    <div role="status" className="flex flex-col gap-3">
      <p className="flex items-start gap-2 text-sm font-medium text-success">
        <CheckCircle2 aria-hidden className="mt-0.5 h-4 w-4 shrink-0" /> {t('receipt.valid')}
      </p>
      {result.matchesRecord !== undefined && (
        <p className={cn('text-sm', result.matchesRecord ? 'text-ink' : 'font-medium text-amber-800')}>
          {result.matchesRecord ? t('receipt.matches') : t('receipt.differs')}
        </p>
      )}
      {result.summary && <Figures summary={result.summary} record={result.record} />}
    </div>
  );
}

/** The result page's check of a receipt a candidate shows: valid or not (and why), and its figures beside the record. */
export function ReceiptCheck({ resultId }: { resultId: string }) {
  const { t } = useTranslation('process');
  const verify = useVerifyReceipt(resultId);
  const [receipt, setReceipt] = useState('');
  const [error, setError] = useState<string | undefined>();

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const value = receipt.trim();
    if (value === '') return setError(t('receipt.required'));
    if (value.length > RECEIPT_MAX) return setError(t('receipt.tooLong', { max: RECEIPT_MAX }));
    setError(undefined);
    verify.mutate(value);
  };

  return (
    <Card>
      <CardHeader
        title={
          <span className="flex items-center gap-2">
            <ShieldCheck aria-hidden className="h-4 w-4 text-muted" /> {t('receipt.title')}
          </span>
        }
        description={t('receipt.description')}
      />
      <CardBody className="flex flex-col gap-3">
        <form noValidate onSubmit={submit} className="flex flex-col gap-3">
          <Field label={t('receipt.label')} error={error}>
            <Textarea
              value={receipt}
              onChange={(event) => {
                setReceipt(event.target.value);
                verify.reset();
              }}
              rows={3}
              spellCheck={false}
              className="font-mono text-xs"
            />
          </Field>
          <Button type="submit" disabled={verify.isPending} className="self-start">
            {verify.isPending ? t('receipt.verifying') : t('receipt.verify')}
          </Button>
        </form>
        {verify.isError && (
          <p role="alert" className="text-sm text-danger">
            {t('receipt.failed', { message: userMessageOf(verify.error) })}
          </p>
        )}
        {verify.data && <Verdict result={verify.data} />}
      </CardBody>
    </Card>
  );
}
