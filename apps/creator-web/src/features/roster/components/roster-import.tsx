import type { Issue } from '@exam/domain/errors';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Field } from '@exam/ui/field';
import { Textarea } from '@exam/ui/input';
import { toast } from '@exam/ui/toaster';
import { Upload } from 'lucide-react';
import { useState } from 'react';
import { ApiError, userMessageOf } from '../../../lib/api-client.ts';
import { useImportRoster } from '../api/roster-api.ts';

/** CSV import, from a file or pasted text; nothing is imported unless every row is good. */
export function RosterImport({ examId }: { examId: string }) {
  const importRoster = useImportRoster(examId);
  const [csv, setCsv] = useState('');
  const [issues, setIssues] = useState<Issue[]>([]);

  const submit = (text: string) => {
    setIssues([]);
    importRoster.mutate(text, {
      onSuccess: (result) => {
        toast.success(`Imported ${result.imported} candidate${result.imported === 1 ? '' : 's'}`);
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
      <CardHeader
        title="Import from CSV"
        description="A header line naming the columns name, candidate id and email (any order), then one candidate per line. A candidate ID already on the roster is updated."
      />
      <CardBody className="flex flex-col gap-4">
        <Field label="Roster CSV">
          <Textarea
            rows={5}
            value={csv}
            placeholder={'name,candidate id,email\nAda Lovelace,S-1,ada@example.org'}
            onChange={(e) => setCsv(e.target.value)}
          />
        </Field>
        <div className="flex flex-wrap items-center gap-3">
          <Button onClick={() => submit(csv)} disabled={!csv.trim() || importRoster.isPending}>
            Import CSV
          </Button>
          <label className="inline-flex cursor-pointer items-center gap-2 text-sm font-medium text-brand-600">
            <Upload aria-hidden className="h-4 w-4" /> Choose a CSV file
            <input
              type="file"
              accept=".csv,text/csv"
              className="sr-only"
              aria-label="CSV file"
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
            <p className="font-medium">Nothing was imported. Fix these rows and import again:</p>
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
