import { Table, TableBody, TableCell, TableHead, TableHeaderCell, TableRow } from '@exam/ui/table';
import { Tooltip } from '@exam/ui/tooltip';
import { cn } from '@exam/ui/lib/cn';
import { useTranslation } from 'react-i18next';
import type { BlanksView, MatchingView, OrderingView } from '../../lib/read-answer.ts';

/**
 * The answers scored in parts (ordering, matching, fill-in-the-blanks), each part marked right or wrong. Never by
 * colour alone: a ✓ or ✗ beside every part, and the words "right" / "wrong" for screen readers.
 */

export function Verdict({ isRight, className }: { isRight: boolean; className?: string }) {
  const { t } = useTranslation('grading');
  return (
    <span className={cn('font-semibold', isRight ? 'text-success' : 'text-danger', className)}>
      <span aria-hidden>{isRight ? '✓' : '✗'}</span>
      <span className="sr-only">{t(isRight ? 'answerView.right' : 'answerView.wrong')}</span>
    </span>
  );
}

/** The candidate's order beside the right one, each neighbouring pair of the right order kept or broken. */
export function OrderingAnswer({ view }: { view: OrderingView }) {
  const { t } = useTranslation('grading');
  return (
    <div className="grid gap-4 sm:grid-cols-2" role="group" aria-label={t('answerView.ordering.label')}>
      <div>
        <p className="text-xs font-medium text-muted">{t('answerView.ordering.given')}</p>
        {view.given.length === 0 ? (
          <p className="mt-1 text-sm text-muted">{t('answerView.noAnswer')}</p>
        ) : (
          <ol aria-label={t('answerView.ordering.given')} className="mt-1 list-inside list-decimal text-sm text-ink">
            {view.given.map((item, i) => (
              <li key={i}>{item}</li>
            ))}
          </ol>
        )}
      </div>
      <div>
        <p className="text-xs font-medium text-muted">{t('answerView.ordering.right')}</p>
        <ol aria-label={t('answerView.ordering.right')} className="mt-1 flex flex-col text-sm text-ink">
          {view.right.map((item, k) => {
            const pair = view.pairs[k];
            return (
              <li key={k}>
                <span className="tabular-nums text-muted">{k + 1}. </span>
                {item}
                {pair && (
                  <p className="ml-4 text-xs" data-testid="ordering-pair">
                    <Verdict isRight={pair.kept} />{' '}
                    <span className={pair.kept ? 'text-success' : 'text-danger'}>
                      {t('answerView.ordering.pairState', {
                        first: pair.first,
                        second: pair.second,
                        state: t(pair.kept ? 'answerView.ordering.kept' : 'answerView.ordering.broken'),
                      })}
                    </span>
                  </p>
                )}
              </li>
            );
          })}
        </ol>
      </div>
    </div>
  );
}

/** Prompt → chosen → right answer, a row each, ✓ or ✗ per row. */
export function MatchingAnswer({ view }: { view: MatchingView }) {
  const { t } = useTranslation('grading');
  return (
    <Table aria-label={t('answerView.matching.label')} className="rounded-md bg-canvas">
      <TableHead>
        <tr>
          <TableHeaderCell>{t('answerView.matching.prompt')}</TableHeaderCell>
          <TableHeaderCell>{t('answerView.matching.chosen')}</TableHeaderCell>
          <TableHeaderCell>{t('answerView.matching.rightAnswer')}</TableHeaderCell>
          <TableHeaderCell>{t('answerView.matching.verdict')}</TableHeaderCell>
        </tr>
      </TableHead>
      <TableBody>
        {view.rows.map((row, i) => (
          <TableRow key={i}>
            <TableCell>{row.prompt}</TableCell>
            <TableCell className={row.chosen ? undefined : 'text-muted'}>
              {row.chosen || t('answerView.matching.none')}
            </TableCell>
            <TableCell>{row.right}</TableCell>
            <TableCell>
              <Verdict isRight={row.isRight} />
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}

/** The text with each gap's value marked right or wrong; the gap's accepted answers on hover and on focus. */
export function BlanksAnswer({ view }: { view: BlanksView }) {
  const { t } = useTranslation('grading');
  return (
    <p
      role="group"
      aria-label={t('answerView.blanks.label')}
      className="whitespace-pre-wrap break-words rounded-md bg-canvas p-3 text-sm leading-8 text-ink"
    >
      {view.pieces.map((piece, i) => {
        if ('text' in piece) return <span key={i}>{piece.text}</span>;
        const value = piece.value || t('answerView.blanks.empty');
        return (
          <Tooltip key={i} content={t('answerView.blanks.accepted', { accepted: piece.accepted.join(', ') })}>
            <mark
              tabIndex={0}
              data-testid={`gap-${piece.gap}`}
              className={cn(
                'mx-0.5 rounded px-1 py-0.5 focus:outline-2 focus:outline-brand-500',
                piece.isRight
                  ? 'bg-green-50 text-green-800 ring-1 ring-green-300'
                  : 'bg-red-50 text-red-800 ring-1 ring-red-300',
                !piece.value && 'italic',
              )}
            >
              <span aria-hidden>
                {value} {piece.isRight ? '✓' : '✗'}
              </span>
              <span className="sr-only">
                {t('answerView.blanks.gap', {
                  n: piece.gap + 1,
                  value,
                  state: t(piece.isRight ? 'answerView.right' : 'answerView.wrong'),
                })}
              </span>
            </mark>
          </Tooltip>
        );
      })}
    </p>
  );
}
