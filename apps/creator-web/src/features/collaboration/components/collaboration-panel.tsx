import {
  COLLABORATION_LEVEL_MAX,
  type CollaborationDimension,
  type CollaborationDimensionView,
  type JudgedDimension,
} from '@exam/domain/collaboration';
import { Badge } from '@exam/ui/badge';
import { Button } from '@exam/ui/button';
import { Card, CardBody, CardHeader } from '@exam/ui/card';
import { Spinner } from '@exam/ui/spinner';
import { Sparkles } from 'lucide-react';
import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useCollaboration, useSetCollaborationLevel, useSuggestCollaboration } from '../api/collaboration.ts';

const LEVELS = Array.from({ length: COLLABORATION_LEVEL_MAX + 1 }, (_, level) => level);
type Level = '0' | '1' | '2' | '3' | '4';

/** The scale's words for a level, from the catalogue (the same text the model is given, collaboration.ts). */
function useScale() {
  const { t } = useTranslation('collaboration');
  return (dimension: CollaborationDimension, level: number) => t(`scale.${dimension}.${String(level) as Level}`);
}

/** A figure as a person reads it: shares as percentages, the gap in logits to the hundredth, counts as they are. */
function formatFigure(name: string, value: number | null, none: string): string {
  if (value === null) return none;
  if (name.endsWith('Share')) return `${Math.round(value * 100)}%`;
  if (name.startsWith('gap')) return value.toFixed(2);
  return Number.isInteger(value) ? String(value) : value.toFixed(1);
}

function Figures({ view }: { view: CollaborationDimensionView }) {
  const { t } = useTranslation('collaboration');
  const entries = Object.entries(view.figures);
  if (entries.length === 0) return null;
  return (
    <dl
      aria-label={t('figuresLabel', { dimension: t(`dimension.${view.dimension}`) })}
      className="grid grid-cols-[1fr_auto] gap-x-4 gap-y-1 text-sm"
    >
      {entries.map(([name, value]) => (
        <div key={name} className="contents">
          <dt className="text-muted">{t(`figure.${name}` as 'figure.messagesSent', { defaultValue: name })}</dt>
          <dd className="text-right tabular-nums text-ink">{formatFigure(name, value, t('notApplicable'))}</dd>
        </div>
      ))}
    </dl>
  );
}

function Evidence({ view }: { view: CollaborationDimensionView }) {
  const { t } = useTranslation('collaboration');
  // A suggestion's quotes are shown with the suggestion; the rest is the process's own evidence.
  const quotes = new Set(view.judgement?.quotes ?? []);
  const items = view.evidence.filter((e) => !(e.kind === 'quote' && quotes.has(e.text)));
  if (items.length === 0) return null;
  return (
    <ul
      aria-label={t('evidenceLabel', { dimension: t(`dimension.${view.dimension}`) })}
      className="flex flex-col gap-1"
    >
      {items.map((item, i) => (
        <li key={i} className="text-sm">
          {item.kind === 'quote' ? (
            <blockquote className="border-l-2 border-line pl-3 italic text-ink">{item.text}</blockquote>
          ) : (
            <span className="text-muted">{item.text}</span>
          )}
        </li>
      ))}
    </ul>
  );
}

/** The AI's suggestion of a judged dimension, and the grader's choice of level (radio buttons, then one button). */
function Judgement({
  resultId,
  view,
}: {
  resultId: string;
  view: CollaborationDimensionView & { dimension: JudgedDimension };
}) {
  const { t } = useTranslation('collaboration');
  const scale = useScale();
  const judgement = view.judgement!;
  const save = useSetCollaborationLevel(resultId, view.dimension);
  const [chosen, setChosen] = useState<number>(judgement.finalLevel ?? judgement.suggestedLevel);
  const name = useId();
  const dimension = t(`dimension.${view.dimension}`);
  const tone = judgement.status === 'suggested' ? 'warning' : judgement.status === 'accepted' ? 'success' : 'info';
  const unchanged = judgement.finalLevel === chosen;
  return (
    <div className="flex flex-col gap-3 rounded-lg border border-line bg-canvas p-3">
      <div className="flex flex-wrap items-center gap-2">
        <p className="font-medium text-ink">{t('suggestion.title', { level: judgement.suggestedLevel })}</p>
        <Badge tone={tone}>{t(`suggestion.status.${judgement.status}`)}</Badge>
        {judgement.decidedBy && (
          <span className="text-xs text-muted">{t('suggestion.decided', { by: judgement.decidedBy })}</span>
        )}
      </div>
      <p className="text-sm text-muted">{scale(view.dimension, judgement.suggestedLevel)}</p>
      <p className="text-sm text-ink">{judgement.rationale}</p>
      {judgement.quotes.length > 0 && (
        <ul aria-label={t('suggestion.quotes')} className="flex flex-col gap-1">
          {judgement.quotes.map((quote) => (
            <li key={quote}>
              <blockquote className="border-l-2 border-brand-200 pl-3 text-sm italic text-ink">{quote}</blockquote>
            </li>
          ))}
        </ul>
      )}
      <fieldset className="flex flex-col gap-1">
        <legend className="mb-1 text-sm font-medium text-ink">{t('decision.legend', { dimension })}</legend>
        {LEVELS.map((level) => (
          <label key={level} className="flex items-start gap-2 text-sm">
            <input
              type="radio"
              name={name}
              value={level}
              checked={chosen === level}
              onChange={() => setChosen(level)}
              className="mt-1"
            />
            <span>{t('decision.option', { level, scale: scale(view.dimension, level) })}</span>
          </label>
        ))}
      </fieldset>
      <div className="flex flex-wrap gap-2">
        <Button
          size="sm"
          variant={chosen === judgement.suggestedLevel ? 'primary' : 'secondary'}
          disabled={save.isPending || unchanged}
          onClick={() => save.mutate(chosen)}
        >
          {save.isPending
            ? t('decision.saving')
            : chosen === judgement.suggestedLevel
              ? t('decision.accept', { level: chosen })
              : t('decision.save', { level: chosen })}
        </Button>
      </div>
      {save.isError && (
        <p role="alert" className="text-sm text-danger">
          {t('decision.failed', { message: userMessageOf(save.error) })}
        </p>
      )}
    </div>
  );
}

function DimensionSection({ resultId, view }: { resultId: string; view: CollaborationDimensionView }) {
  const { t } = useTranslation('collaboration');
  const scale = useScale();
  const suggest = useSuggestCollaboration(resultId);
  const headingId = useId();
  const judged = view.basis === 'judgement';
  return (
    <section
      aria-labelledby={headingId}
      className="flex flex-col gap-3 border-t border-line pt-4 first:border-t-0 first:pt-0"
    >
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h3 id={headingId} className="text-sm font-semibold text-ink">
          {t(`dimension.${view.dimension}`)}
        </h3>
        <span className="text-xs text-muted">{t(`basis.${view.basis}`)}</span>
      </div>
      <p className="text-xs text-muted">{t(`dimensionHint.${view.dimension}`)}</p>
      {view.level === null ? (
        <p className="text-sm text-ink">
          <span className="font-medium">{t('notMeasured')}</span>
          {view.reason && <span className="block text-muted">{view.reason}</span>}
        </p>
      ) : (
        <p className="text-sm text-ink">
          <span className="font-medium">{t('level', { level: view.level })}</span>
          <span className="block text-muted">{scale(view.dimension, view.level)}</span>
        </p>
      )}
      <Figures view={view} />
      <Evidence view={view} />
      {judged && view.judgement && (
        <Judgement
          key={view.judgement.suggestedAt}
          resultId={resultId}
          view={view as CollaborationDimensionView & { dimension: JudgedDimension }}
        />
      )}
      {judged && (
        <div className="flex flex-col gap-2">
          <div>
            <Button size="sm" variant="secondary" disabled={suggest.isPending} onClick={() => suggest.mutate()}>
              <Sparkles aria-hidden className="h-4 w-4" />
              {suggest.isPending
                ? t('suggestion.asking')
                : view.judgement
                  ? t('suggestion.askAgain')
                  : t('suggestion.ask')}
            </Button>
          </div>
          {suggest.isError && (
            <p role="alert" className="text-sm text-danger">
              {t('suggestion.failed', { message: userMessageOf(suggest.error) })}
            </p>
          )}
        </div>
      )}
    </section>
  );
}

/** The result page's collaboration profile (docs/product.md#collaboration-profile). */
export function CollaborationPanel({ resultId }: { resultId: string }) {
  const { t } = useTranslation('collaboration');
  const profile = useCollaboration(resultId);
  return (
    <Card className="mt-6" aria-label={t('panel.title')} role="region">
      <CardHeader title={t('panel.title')} description={t('panel.description')} />
      <CardBody>
        {profile.isPending ? (
          <Spinner label={t('panel.loading')} />
        ) : profile.isError ? (
          <div className="flex flex-col items-start gap-2">
            <p className="text-sm text-muted">{t('panel.failed', { message: userMessageOf(profile.error) })}</p>
            <Button size="sm" variant="secondary" onClick={() => void profile.refetch()}>
              {t('panel.retry')}
            </Button>
          </div>
        ) : (
          <div className="flex flex-col gap-4">
            {profile.data.unavailable.map((part) => (
              <p key={part} role="status" className="text-sm text-muted">
                {t(`panel.unavailable.${part}`)}
              </p>
            ))}
            {profile.data.dimensions.map((view) => (
              <DimensionSection key={view.dimension} resultId={resultId} view={view} />
            ))}
          </div>
        )}
      </CardBody>
    </Card>
  );
}
