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
import { useSaveSimilarityThreshold, useSimilarity } from '../api/similarity-queries.ts';
import { CodeDiff } from './code-diff.tsx';
import { questionName } from '../../../lib/display-names.ts';

const percent = (share: number) => `${Math.round(share * 100)} %`;

/** The exam's threshold snapped to the control's 0.05 steps, within 0.3–1. */
const snapped = (value: number) => Math.min(1, Math.max(0.3, Math.round(value * 20) / 20));

type Selection = { kind: 'pair' | 'assistant'; index: number } | null;

function QuestionMatches({ question }: { question: QuestionSimilarity }) {
  const [selected, setSelected] = useState<Selection>(null);
  const headingId = useId();
  const isEmpty = question.pairs.length === 0 && question.assistantMatches.length === 0;
  const pair = selected?.kind === 'pair' ? question.pairs[selected.index] : undefined;
  const match = selected?.kind === 'assistant' ? question.assistantMatches[selected.index] : undefined;
  const toggle = (next: NonNullable<Selection>) =>
    setSelected((s) => (s?.kind === next.kind && s.index === next.index ? null : next));
  const notes = [
    `${question.compared} of ${question.answered} answers compared`,
    question.tooShort > 0 ? `${question.tooShort} too short or only the starter code` : null,
    question.isCapped ? `only the first ${question.cap} submissions are compared` : null,
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
        <p className="text-sm text-muted">No similar answers at this threshold</p>
      ) : (
        <>
          {question.pairs.length > 0 && (
            <ul aria-label="Similar pairs" className="flex flex-col gap-1">
              {question.pairs.map((p, index) => (
                <li key={`${p.a.resultId}-${p.b.resultId}`} data-testid="similarity-pair">
                  <Button
                    variant="ghost"
                    size="sm"
                    aria-pressed={selected?.kind === 'pair' && selected.index === index}
                    onClick={() => toggle({ kind: 'pair', index })}
                  >
                    {p.a.name} and {p.b.name}: {percent(p.similarity)}
                  </Button>
                </li>
              ))}
            </ul>
          )}
          {question.flaggedPairs > question.pairs.length && (
            <p className="text-xs text-muted">
              The {question.pairs.length} most similar of {question.flaggedPairs} pairs are listed.
            </p>
          )}
          {pair && <CodeDiff leftLabel={pair.a.name} left={pair.a.code} rightLabel={pair.b.name} right={pair.b.code} />}
          {question.assistantMatches.length > 0 && (
            <ul aria-label="Answers matching the AI assistant" className="flex flex-col gap-2">
              {question.assistantMatches.map((m, index) => (
                <li key={m.candidate.resultId} className="rounded-lg border border-line p-3">
                  <div className="flex flex-wrap items-center gap-2">
                    <Bot aria-hidden className="h-4 w-4 text-muted" />
                    <span className="text-sm">
                      {m.candidate.name}’s answer matches an assistant reply: {percent(m.similarity)}
                    </span>
                    {m.isIdentical && <Badge tone="warning">Identical</Badge>}
                    <Button
                      variant="ghost"
                      size="sm"
                      aria-pressed={selected?.kind === 'assistant' && selected.index === index}
                      onClick={() => toggle({ kind: 'assistant', index })}
                    >
                      Compare with {m.candidate.name}’s answer
                    </Button>
                  </div>
                  <pre
                    aria-label={`Assistant reply to ${m.candidate.name}`}
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
              rightLabel="Assistant reply"
              right={match.excerpt}
            />
          )}
        </>
      )}
    </section>
  );
}

function Report({ report }: { report: SimilarityReport }) {
  if (report.questions.length === 0) return <p className="text-sm text-muted">The exam has no coding questions.</p>;
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
  const [threshold, setThreshold] = useState(() => snapped(savedThreshold));
  const similarity = useSimilarity(examId, threshold);
  const save = useSaveSimilarityThreshold(examId);
  const sliderId = useId();

  const onSave = () =>
    save.mutate(threshold, {
      onSuccess: () => toast.success(`Similarity threshold saved: ${percent(threshold)}`),
      onError: (error) => toast.error(userMessageOf(error)),
    });

  return (
    <Card>
      <section aria-label="Code similarity">
        <CardHeader
          title="Code similarity"
          description="Coding answers that share most of their structure (names, comments and layout ignored), and answers that match code the AI assistant gave the candidate."
        />
        <CardBody className="flex flex-col gap-4">
          <div className="flex flex-wrap items-center gap-3">
            <label htmlFor={sliderId} className="text-sm font-medium text-ink">
              Similarity threshold
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
              Save as exam default
            </Button>
            {similarity.isFetching && <Spinner label="Comparing answers…" />}
          </div>
          {similarity.isPending ? null : similarity.isError ? (
            <EmptyState
              icon={<AlertTriangle aria-hidden />}
              title="Could not compare the answers"
              description={userMessageOf(similarity.error)}
              action={
                <Button variant="secondary" onClick={() => void similarity.refetch()}>
                  Try again
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
