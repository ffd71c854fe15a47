import type { Issue } from '@exam/domain/errors';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Textarea } from '@exam/ui/input';
import { toast } from '@exam/ui/toaster';
import { Upload } from 'lucide-react';
import { useState } from 'react';
import { ApiError, userMessageOf } from '../../../lib/api-client.ts';
import { useImportRoster } from '../api/manage-roster.ts';
import { useTranslation } from 'react-i18next';

/** CSV import, from a file or pasted text; nothing is imported unless every row is good. */
export function RosterImport({ examId }: { examId: string }) {
  const { t } = useTranslation('roster');
  const importRoster = useImportRoster(examId);
  const [csv, setCsv] = useState('');
  const [issues, setIssues] = useState<Issue[]>([]);

  const submit = (text: string) => {
    setIssues([]);
    importRoster.mutate(text, {
      onSuccess: (result) => {
        toast.success(t('rosterImport.importedCandidates', { count: result.imported }));
        setCsv('');
      },
      onError: (error) => {
        const listed = error instanceof ApiError ? error.issues : [];
        setIssues(listed.length ? listed : [{ path: 'csv', message: userMessageOf(error) }]);
      },
    });
  };

  return (
    <Card>
      <CardHeader title={t('rosterImport.importFromCsv')} description={t('rosterImport.aHeaderLineNaming')} />
      <CardBody className="flex flex-col gap-4">
        <Field label={t('rosterImport.rosterCsv')}>
          <Textarea
            rows={5}
            value={csv}
            placeholder={t('rosterImport.nameCandidateIdEmail')}
            onChange={(e) => setCsv(e.target.value)}
          />
        </Field>
        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={() => submit(csv)} disabled={!csv.trim() || importRoster.isPending}>
            {t('rosterImport.importCsv')}
          </Button>
          <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium text-brand-600">
            <Upload aria-hidden className="h-4 w-4" /> {t('rosterImport.chooseACsvFile')}
            <input
              type="file"
              accept=".csv,text/csv"
              className="sr-only"
              aria-label={t('rosterImport.csvFile')}
              onChange={(e) => {
                const file = e.target.files?.[0];
                e.target.value = '';
                if (file) void file.text().then(submit);
              }}
            />
          </label>
        </div>
        {issues.length > 0 && (
          <div role="alert" className="rounded-lg border border-red-200 bg-red-50 p-3 text-sm text-red-700">
            <p className="font-medium">{t('rosterImport.nothingWasImportedFix')}</p>
            <ul className="mt-1 list-disc pl-5">
              {issues.map((issue) => (
                <li key={`${issue.path}-${issue.message}`}>{issue.message}</li>
              ))}
            </ul>
          </div>
        )}
      </CardBody>
    </Card>
  );
}
