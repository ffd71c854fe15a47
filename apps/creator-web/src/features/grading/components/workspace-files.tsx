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
import { useTranslation } from 'react-i18next';
import { i18n } from '../../../i18n/index.ts';
import { bytesOf, canOpen, isWorkbook, isQueryLog } from '../lib/collected-files.ts';

const CodeViewer = lazy(() => import('./code-viewer.tsx').then((m) => ({ default: m.CodeViewer })));
// The workbook grid brings exceljs: loaded when a grader opens a workbook, never with the grading page.
const WorkbookViewer = lazy(() => import('./workbook-viewer.tsx').then((m) => ({ default: m.WorkbookViewer })));
const QueryLog = lazy(() => import('./query-log.tsx').then((m) => ({ default: m.QueryLog })));

/** The viewer a file opens in: a grid for a workbook, the statements of a query log, else the code viewer. */
function FileView({ name, file }: { name: string; file: WorkspaceFile }) {
  if (isWorkbook(name)) return <WorkbookViewer fileName={name} bytes={bytesOf(file)} />;
  if (isQueryLog(name)) return <QueryLog content={file.content} />;
  return <CodeViewer fileName={name} content={file.content} />;
}

export function formatBytes(size: number): string {
  if (size < 1024) return i18n.t('common:size.bytes', { size });
  if (size < 1024 * 1024) return i18n.t('common:size.kilobytes', { size: (size / 1024).toFixed(1) });
  return i18n.t('common:size.megabytes', { size: (size / (1024 * 1024)).toFixed(1) });
}

/** The files collected from the candidate's coding workspace at submit (result.workspace_files). */
export function WorkspaceFiles({ files }: { files: Record<string, WorkspaceFile> }) {
  const { t } = useTranslation('grading');
  const [open, setOpen] = useState<string | null>(null);
  const entries = Object.entries(files).sort(([a], [b]) => a.localeCompare(b));
  const opened = open && Object.hasOwn(files, open) ? files[open] : undefined;
  // Entries standing for files collection left out (workspace-orchestrator's collect-files.ts): never hidden.
  const leftOut = entries.reduce((sum, [, file]) => sum + (file.omitted?.files ?? 0), 0);

  return (
    <Card>
      <CardHeader title={t('workspaceFiles.workspaceFiles')} description={t('workspaceFiles.filesSavedFromThe')} />
      {entries.length === 0 ? (
        <EmptyState icon={<FolderOpen aria-hidden />} title={t('workspaceFiles.noWorkspaceFilesWere')} />
      ) : (
        <>
          {leftOut > 0 && (
            <p role="note" className="px-4 pb-2 text-sm font-medium text-amber-800">
              {t('workspaceFiles.leftOutSummary', { count: leftOut })}
            </p>
          )}
          <Table aria-label={t('workspaceFiles.workspaceFiles')}>
            <TableHead>
              <tr>
                <TableHeaderCell>{t('workspaceFiles.name')}</TableHeaderCell>
                <TableHeaderCell>{t('workspaceFiles.size')}</TableHeaderCell>
                <TableHeaderCell className="text-right">{t('workspaceFiles.actions')}</TableHeaderCell>
              </tr>
            </TableHead>
            <TableBody>
              {entries.map(([name, file]) => (
                <TableRow key={name}>
                  <TableCell className="font-mono text-xs">
                    {name}
                    {file.truncated && <span className="ml-2 text-muted">{t('workspaceFiles.truncated')}</span>}
                    {isWorkbook(name) && !canOpen(name, file) && !file.omitted && (
                      <span className="ml-2 text-muted">{t('workspaceFiles.workbookNotCollected')}</span>
                    )}
                    {file.omitted && (
                      <span className="ml-2 text-muted">
                        {t('workspaceFiles.leftOut', {
                          count: file.omitted.files,
                          reason: t(`workspaceFiles.reason.${file.omitted.reason}`),
                        })}
                      </span>
                    )}
                  </TableCell>
                  <TableCell className="tabular-nums">{formatBytes(file.size)}</TableCell>
                  <TableCell className="text-right">
                    {!file.omitted && (
                      <div className="flex justify-end gap-2">
                        <Button
                          variant="secondary"
                          size="sm"
                          onClick={() => setOpen(name)}
                          disabled={!canOpen(name, file)}
                          aria-label={t('workspaceFiles.openName', { name })}
                        >
                          <FileCode2 aria-hidden className="h-4 w-4" /> {t('workspaceFiles.open')}
                        </Button>
                        <Button
                          variant="secondary"
                          size="sm"
                          disabled={file.isBinary && file.contentBase64 === undefined}
                          aria-label={t('workspaceFiles.downloadName', { name })}
                          onClick={() =>
                            saveBlob(
                              new Blob([bytesOf(file) as Uint8Array<ArrayBuffer>], { type: file.type || 'text/plain' }),
                              name.split('/').pop() ?? name,
                            )
                          }
                        >
                          <Download aria-hidden className="h-4 w-4" /> {t('workspaceFiles.download')}
                        </Button>
                      </div>
                    )}
                  </TableCell>
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </>
      )}
      <Dialog
        open={opened !== undefined}
        onOpenChange={(isOpen) => !isOpen && setOpen(null)}
        title={open ?? ''}
        description={t('workspaceFiles.readOnlyViewOf')}
        className="w-[min(94vw,56rem)]"
      >
        {opened && open && (
          <Suspense fallback={<Spinner label={t('workspaceFiles.loadingViewer')} />}>
            <FileView name={open} file={opened} />
          </Suspense>
        )}
      </Dialog>
    </Card>
  );
}
