import type { WorkspaceFile } from '@exam/domain/internal';
import { Button } from '@exam/ui/button';
import { Card, CardHeader } from '@exam/ui/card';
import { Dialog } from '@exam/ui/dialog';
import { EmptyState } from '@exam/ui/empty-state';
import { Spinner } from '@exam/ui/spinner';
import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { Download, FileCode2, FolderOpen } from 'lucide-react';
import { lazy, Suspense, useState } from 'react';
import { saveBlob } from '../../../lib/download.ts';

const CodeViewer = lazy(() => import('./code-viewer.tsx').then((m) => ({ default: m.CodeViewer })));

export function formatBytes(size: number): string {
  if (size < 1024) return `${size} B`;
  if (size < 1024 * 1024) return `${(size / 1024).toFixed(1)} KB`;
  return `${(size / (1024 * 1024)).toFixed(1)} MB`;
}

/** The files collected from the candidate's coding workspace at submit (result.workspace_files). */
export function WorkspaceFiles({ files }: { files: Record<string, WorkspaceFile> }) {
  const [open, setOpen] = useState<string | null>(null);
  const entries = Object.entries(files).sort(([a], [b]) => a.localeCompare(b));
  const opened = open ? files[open] : undefined;

  return (
    <Card>
      <CardHeader title="Workspace Files" description="Files saved from the candidate's coding workspace." />
      {entries.length === 0 ? (
        <EmptyState icon={<FolderOpen aria-hidden />} title="No workspace files were saved for this submission" />
      ) : (
        <Table aria-label="Workspace Files">
          <TableHead>
            <tr>
              <TableHeaderCell>Name</TableHeaderCell>
              <TableHeaderCell>Size</TableHeaderCell>
              <TableHeaderCell className="text-right">Actions</TableHeaderCell>
            </tr>
          </TableHead>
          <TableBody>
            {entries.map(([name, file]) => (
              <TableRow key={name}>
                <TableCell className="font-mono text-xs">
                  {name}
                  {file.truncated && <span className="ml-2 text-muted">(truncated)</span>}
                </TableCell>
                <TableCell className="tabular-nums">{formatBytes(file.size)}</TableCell>
                <TableCell className="text-right">
                  <div className="flex justify-end gap-2">
                    <Button
                      variant="secondary"
                      size="sm"
                      onClick={() => setOpen(name)}
                      disabled={file.isBinary}
                      aria-label={`Open ${name}`}
                    >
                      <FileCode2 aria-hidden className="h-4 w-4" /> Open
                    </Button>
                    <Button
                      variant="secondary"
                      size="sm"
                      disabled={file.isBinary}
                      aria-label={`Download ${name}`}
                      onClick={() =>
                        saveBlob(
                          new Blob([file.content], { type: file.type || 'text/plain' }),
                          name.split('/').pop() ?? name,
                        )
                      }
                    >
                      <Download aria-hidden className="h-4 w-4" /> Download
                    </Button>
                  </div>
                </TableCell>
              </TableRow>
            ))}
          </TableBody>
        </Table>
      )}
      <Dialog
        open={opened !== undefined}
        onOpenChange={(isOpen) => !isOpen && setOpen(null)}
        title={open ?? ''}
        description="Read-only view of the saved file."
        className="w-[min(94vw,56rem)]"
      >
        {opened && open && (
          <Suspense fallback={<Spinner label="Loading viewer…" />}>
            <CodeViewer fileName={open} content={opened.content} />
          </Suspense>
        )}
      </Dialog>
    </Card>
  );
}
