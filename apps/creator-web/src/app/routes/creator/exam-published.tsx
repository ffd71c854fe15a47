import type { Exam } from '@exam/domain/exam';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { Input } from '@exam/ui/input';
import { PageSpinner } from '@exam/ui/spinner';
import { SwitchField } from '@exam/ui/switch';
import { toast } from '@exam/ui/toaster';
import { ArrowLeft, CheckCircle2, Copy, FileQuestion, Radio, WifiOff } from 'lucide-react';
import { useId, useState } from 'react';
import { Link, useParams } from 'react-router';
import { paths, takerPaths } from '../../../config/paths.ts';
import { useRuntimeConfig } from '../../../config/runtime-config.ts';
import { useExam } from '../../../features/exams/api/get-exams.ts';
import { useSetExamLive } from '../../../features/exams/api/manage-exams.ts';
import { copyExamUrl } from '../../../features/exams/components/published-exams-table.tsx';
import { TakeOfflineDialog } from '../../../features/exams/components/take-offline-dialog.tsx';
import { ExamAccessGate } from '../../../features/exams/components/exam-access-gate.tsx';
import { examCan } from '../../../features/exams/lib/capabilities.ts';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useTranslation } from 'react-i18next';

function BackToDashboard({ variant = 'secondary' }: { variant?: 'secondary' | 'primary' }) {
  const { t } = useTranslation('dashboard');
  return (
    <Button asChild variant={variant}>
      <Link to={paths.dashboard}>
        <ArrowLeft aria-hidden className="h-4 w-4" /> {t('examPublished.backToDashboard')}
      </Link>
    </Button>
  );
}

export function ExamPublishedRoute() {
  const { t } = useTranslation('dashboard');
  const { examId = '' } = useParams();
  const exam = useExam(examId);
  const setLive = useSetExamLive();
  const [confirmOffline, setConfirmOffline] = useState(false);
  const { takerOrigin } = useRuntimeConfig();

  if (exam.isPending) return <PageSpinner label={t('examPublished.loadingExam')} />;
  if (exam.isError) {
    return (
      <Card className="mx-auto max-w-lg">
        <EmptyState
          icon={<FileQuestion aria-hidden />}
          title={t('examPublished.examNotFound')}
          description={t('examPublished.itMayHaveBeen')}
          action={<BackToDashboard variant="primary" />}
        />
      </Card>
    );
  }

  const data = exam.data;
  const url = takerPaths.exam(takerOrigin, data.id);
  const applyLive = (isLive: boolean) =>
    setLive.mutate(
      { examId: data.id, isLive },
      {
        onSettled: () => setConfirmOffline(false),
        onSuccess: () => toast.success(isLive ? t('examPublished.examIsNowLive') : t('examPublished.examIsNoLonger')),
        onError: (error) => toast.error(userMessageOf(error)),
      },
    );
  // Going live is one click; going offline asks first, with who is sitting it now.
  const toggleLive = (isLive: boolean) => (isLive ? applyLive(true) : setConfirmOffline(true));

  return (
    <ExamAccessGate examId={examId} capability="exam:view">
      <div className="mx-auto flex max-w-2xl flex-col gap-6">
        <div className="flex flex-col items-center text-center">
          <div className="rounded-full bg-green-50 p-3 text-success">
            <CheckCircle2 aria-hidden className="h-8 w-8" />
          </div>
          <h1 className="mt-4 text-2xl font-semibold text-ink">{t('examPublished.examPublished')}</h1>
          <p className="mt-1 text-sm text-muted">{t('examPublished.shareTheLinkBelow')}</p>
        </div>
        <CandidateLinkCard
          url={url}
          isLive={data.isLive}
          onToggleLive={toggleLive}
          canSwitchLive={examCan(data, 'exam:edit')}
        />
        <TakeOfflineDialog
          examId={data.id}
          open={confirmOffline}
          onOpenChange={setConfirmOffline}
          onConfirm={() => applyLive(false)}
          isPending={setLive.isPending}
        />
        <ExamSummaryCard exam={data} />
        <div className="flex justify-center">
          <BackToDashboard />
        </div>
      </div>
    </ExamAccessGate>
  );
}

/** The link to share, and the switch that decides whether candidates can open it. */
function CandidateLinkCard({
  url,
  isLive,
  onToggleLive,
  canSwitchLive,
}: {
  url: string;
  isLive: boolean;
  onToggleLive: (isLive: boolean) => void;
  /** Only a role that edits the exam switches it live or offline; others see its state. */
  canSwitchLive: boolean;
}) {
  const { t } = useTranslation('dashboard');
  const urlId = useId();
  return (
    <Card>
      <CardHeader title={t('examPublished.candidateLink')} />
      <CardBody className="flex flex-col gap-5">
        <div className="flex flex-col gap-1.5">
          <label htmlFor={urlId} className="text-sm font-medium text-ink">
            {t('examPublished.examUrl')}
          </label>
          <div className="flex gap-2">
            <Input
              id={urlId}
              readOnly
              value={url}
              onFocus={(event) => event.currentTarget.select()}
              className="font-mono"
            />
            <Button variant="secondary" className="shrink-0 whitespace-nowrap" onClick={() => void copyExamUrl(url)}>
              <Copy aria-hidden className="h-4 w-4" /> {t('examPublished.copyUrl')}
            </Button>
          </div>
        </div>
        {canSwitchLive && (
          <SwitchField
            label={t('examPublished.makeExamLive')}
            hint={t('examPublished.onlyLiveExamsCan')}
            checked={isLive}
            onCheckedChange={onToggleLive}
          />
        )}
        <div
          role="status"
          className={
            isLive
              ? 'flex items-center gap-2 rounded-lg border border-green-200 bg-green-50 px-3 py-2 text-sm text-green-800'
              : 'flex items-center gap-2 rounded-lg border border-yellow-200 bg-yellow-50 px-3 py-2 text-sm text-yellow-800'
          }
        >
          {isLive ? <Radio aria-hidden className="h-4 w-4" /> : <WifiOff aria-hidden className="h-4 w-4" />}
          {isLive ? t('examPublished.thisExamIsLive') : t('examPublished.thisExamIsOffline')}
        </div>
      </CardBody>
    </Card>
  );
}

function ExamSummaryCard({ exam }: { exam: Exam }) {
  const { t } = useTranslation('dashboard');
  return (
    <Card>
      <CardHeader title={t('examPublished.summary')} />
      <CardBody>
        <dl className="grid grid-cols-[10rem_1fr] gap-y-3 text-sm">
          <dt className="text-muted">{t('examPublished.title')}</dt>
          <dd className="font-medium text-ink">{exam.title}</dd>
          <dt className="text-muted">{t('examPublished.questions')}</dt>
          <dd className="text-ink">{exam.questions.length}</dd>
          <dt className="text-muted">{t('examPublished.aiAssistant')}</dt>
          <dd>
            {exam.aiSettings.enabled ? (
              <Badge tone="success">{t('examPublished.on')}</Badge>
            ) : (
              <Badge>{t('examPublished.off')}</Badge>
            )}
          </dd>
          <dt className="text-muted">{t('examPublished.timer')}</dt>
          <dd className="text-ink">
            {exam.timerEnabled
              ? t('examPublished.timerminutesMinutes', { timerMinutes: exam.timerMinutes })
              : t('examPublished.noTimer')}
          </dd>
        </dl>
      </CardBody>
    </Card>
  );
}
