import type { QuestionSimilarity, SimilarityReport } from '@exam/domain/similarity';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { Spinner } from '@exam/ui/spinner';
import { toast } from '@exam/ui/toaster';
import { AlertTriangle, Bot } from 'lucide-react';
import { useId, useState } from 'react';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useSaveSimilarityThreshold, useSimilarity } from '../api/get-similarity.ts';
import { CodeDiff } from '../../../components/code-diff.tsx';
import { questionName } from '../../../lib/display-names.ts';
import { useTranslation } from 'react-i18next';

const percent = (share: number) => `${Math.round(share * 100)} %`;

/** The exam's threshold snapped to the control's 0.05 steps, within 0.3–1. */
const snapped = (value: number) => Math.min(1, Math.max(0.3, Math.round(value * 20) / 20));

type Selection = { kind: 'pair' | 'assistant'; index: number } | null;

function QuestionMatches({ question }: { question: QuestionSimilarity }) {
  const { t } = useTranslation('insights');
  const [selected, setSelected] = useState<Selection>(null);
  const headingId = useId();
  const isEmpty = question.pairs.length === 0 && question.assistantMatches.length === 0;
  const pair = selected?.kind === 'pair' ? question.pairs[selected.index] : undefined;
  const match = selected?.kind === 'assistant' ? question.assistantMatches[selected.index] : undefined;
  const toggle = (next: NonNullable<Selection>) =>
    setSelected((s) => (s?.kind === next.kind && s.index === next.index ? null : next));
  const notes = [
    t('codeSimilarity.comparedOfAnsweredAnswers', { compared: question.compared, answered: question.answered }),
    question.tooShort > 0 ? t('codeSimilarity.tooshortTooShortOr', { tooShort: question.tooShort }) : null,
    question.isCapped ? t('codeSimilarity.onlyTheFirstCap', { cap: question.cap }) : null,
  ].filter(Boolean);

  return (
    <section aria-labelledby={headingId} className="flex flex-col gap-3 border-t border-line pt-4 first:border-t-0">
      <div>
        <h3 id={headingId} className="font-medium text-ink">
          Q{question.questionIndex + 1}: {questionName(question.title)}
        </h3>
        <p className="text-xs text-muted">{notes.join(' · ')}</p>
      </div>
      {isEmpty ? (
        <p className="text-sm text-muted">{t('codeSimilarity.noSimilarAnswersAt')}</p>
      ) : (
        <>
          {question.pairs.length > 0 && (
            <ul aria-label={t('codeSimilarity.similarPairs')} className="flex flex-col gap-1">
              {question.pairs.map((p, index) => (
                <li key={`${p.a.resultId}-${p.b.resultId}`} data-testid="similarity-pair">
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-pressed={selected?.kind === 'pair' && selected.index === index}
                    onClick={() => toggle({ kind: 'pair', index })}
                  >
                    {t('codeSimilarity.nameAndName2Percent', {
                      name: p.a.name,
                      name2: p.b.name,
                      percent: percent(p.similarity),
                    })}
                  </Button>
                </li>
              ))}
            </ul>
          )}
          {question.flaggedPairs > question.pairs.length && (
            <p className="text-xs text-muted">
              {t('codeSimilarity.theLengthMostSimilar', {
                length: question.pairs.length,
                flaggedPairs: question.flaggedPairs,
              })}
            </p>
          )}
          {pair && <CodeDiff leftLabel={pair.a.name} left={pair.a.code} rightLabel={pair.b.name} right={pair.b.code} />}
          {question.assistantMatches.length > 0 && (
            <ul aria-label={t('codeSimilarity.answersMatchingTheAi')} className="flex flex-col gap-2">
              {question.assistantMatches.map((m, index) => (
                <li key={m.candidate.resultId} className="rounded-lg border border-line p-3">
                  <div className="flex flex-wrap items-center gap-2">
                    <Bot aria-hidden className="h-4 w-4 text-muted" />
                    <span className="text-sm">
                      {t('codeSimilarity.nameSAnswerMatches', {
                        name: m.candidate.name,
                        percent: percent(m.similarity),
                      })}
                    </span>
                    {m.isIdentical && <Badge tone="warning">{t('codeSimilarity.identical')}</Badge>}
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-pressed={selected?.kind === 'assistant' && selected.index === index}
                      onClick={() => toggle({ kind: 'assistant', index })}
                    >
                      {t('codeSimilarity.compareWithNameS', { name: m.candidate.name })}
                    </Button>
                  </div>
                  <pre
                    aria-label={t('codeSimilarity.assistantReplyToName', { name: m.candidate.name })}
                    className="mt-2 max-h-40 overflow-auto rounded bg-slate-50 p-2 text-xs"
                  >
                    {m.excerpt}
                  </pre>
                </li>
              ))}
            </ul>
          )}
          {match && (
            <CodeDiff
              leftLabel={match.candidate.name}
              left={match.candidate.code}
              rightLabel={t('codeSimilarity.assistantReply')}
              right={match.excerpt}
            />
          )}
        </>
      )}
    </section>
  );
}

function Report({ report }: { report: SimilarityReport }) {
  const { t } = useTranslation('insights');
  if (report.questions.length === 0) return <p className="text-sm text-muted">{t('codeSimilarity.theExamHasNo')}</p>;
  return (
    <div className="flex flex-col gap-4">
      {report.assistantMatchesUnavailable && (
        <p role="status" className="flex items-center gap-2 text-sm text-yellow-800">
          <AlertTriangle aria-hidden className="h-4 w-4" /> {report.assistantMatchesUnavailable}
        </p>
      )}
      {report.questions.map((q) => (
        <QuestionMatches key={q.questionIndex} question={q} />
      ))}
    </div>
  );
}

/**
 * Code similarity on the insights page (docs/product.md#code-similarity): pairs of coding answers at or above a
 * threshold the creator moves (saved on the exam on request), each opening a side-by-side diff, and answers that
 * match code the AI assistant gave their author.
 */
export function CodeSimilarity({ examId, savedThreshold }: { examId: string; savedThreshold: number }) {
  const { t } = useTranslation('insights');
  const [threshold, setThreshold] = useState(() => snapped(savedThreshold));
  const similarity = useSimilarity(examId, threshold);
  const save = useSaveSimilarityThreshold(examId);
  const sliderId = useId();

  const onSave = () =>
    save.mutate(threshold, {
      onSuccess: () =>
        toast.success(t('codeSimilarity.similarityThresholdSavedPercent', { percent: percent(threshold) })),
      onError: (error) => toast.error(userMessageOf(error)),
    });

  return (
    <Card>
      <section aria-label={t('codeSimilarity.codeSimilarity')}>
        <CardHeader
          title={t('codeSimilarity.codeSimilarity')}
          description={t('codeSimilarity.codingAnswersThatShare')}
        />
        <CardBody className="flex flex-col gap-4">
          <div className="flex flex-wrap items-center gap-3">
            <label htmlFor={sliderId} className="text-sm font-medium text-ink">
              {t('codeSimilarity.similarityThreshold')}
            </label>
            <input
              id={sliderId}
              type="range"
              min={0.3}
              max={1}
              step={0.05}
              value={threshold}
              aria-valuetext={percent(threshold)}
              onChange={(e) => setThreshold(snapped(Number(e.target.value)))}
              className="w-48 accent-brand-600"
            />
            <output htmlFor={sliderId} className="w-12 text-sm tabular-nums">
              {percent(threshold)}
            </output>
            <Button
              variant="secondary"
              size="sm"
              disabled={threshold === savedThreshold || save.isPending}
              onClick={onSave}
            >
              {t('codeSimilarity.saveAsExamDefault')}
            </Button>
            {similarity.isFetching && <Spinner label={t('codeSimilarity.comparingAnswers')} />}
          </div>
          {similarity.isPending ? null : similarity.isError ? (
            <EmptyState
              icon={<AlertTriangle aria-hidden />}
              title={t('codeSimilarity.couldNotCompareThe')}
              description={userMessageOf(similarity.error)}
              action={
                <Button variant="secondary" onClick={() => void similarity.refetch()}>
                  {t('codeSimilarity.tryAgain')}
                </Button>
              }
            />
          ) : (
            <Report report={similarity.data} />
          )}
        </CardBody>
      </section>
    </Card>
  );
}
