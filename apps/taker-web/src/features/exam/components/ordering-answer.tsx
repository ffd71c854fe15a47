import { decodeOrder, encodeOrder } from '@exam/domain/question-kinds';
import { Button } from '@exam/ui/button';
import { InlineRichText } from '@exam/ui/rich-text';
import { ArrowDown, ArrowUp } from 'lucide-react';
import { useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { WHOLE, selectClass, type KindAnswerProps } from './kind-answer-props.ts';

type Control = 'up' | 'down' | 'position';

/** The saved order when it holds exactly the question's items (a stale or hand-edited value is ignored). */
function orderShown(items: readonly string[], answer: string): string[] {
  const saved = decodeOrder(answer);
  const same = saved.length === items.length && [...saved].sort().join('\n') === [...items].sort().join('\n');
  return same ? saved : [...items];
}

/**
 * An ordering question, by keyboard and screen reader alike (never by dragging alone): each item has Move up and
 * Move down buttons and a position select; the focus stays on the moved item's control and a polite message says
 * where it went. The items start in the order the server shuffled them, and that start is not an answer: the
 * question is answered once the candidate moves an item or keeps the order as it is. The answer is the whole
 * order, encoded (question-kinds.ts's encodeOrder).
 */
export function OrderingAnswer({ index, question, answer, onAnswer }: KindAnswerProps) {
  const { t } = useTranslation('question-kinds');
  const order = orderShown(question.items ?? [], answer);
  const total = order.length;
  const [message, setMessage] = useState('');
  const controls = useRef(new Map<string, HTMLElement>());
  const refocus = useRef<{ item: string; control: Control } | null>(null);

  // Reordering moves the items' elements, which takes the focus away: it goes back to the moved item's control.
  useLayoutEffect(() => {
    const target = refocus.current;
    if (!target) return;
    refocus.current = null;
    controls.current.get(`${target.control}:${target.item}`)?.focus();
  });

  const keep = (control: Control, item: string) => (node: HTMLElement | null) => {
    if (node) controls.current.set(`${control}:${item}`, node);
    else controls.current.delete(`${control}:${item}`);
  };

  const move = (from: number, to: number, control: Control) => {
    if (to < 0 || to >= total || to === from) return;
    const next = [...order];
    const [item] = next.splice(from, 1);
    next.splice(to, 0, item!);
    // A button that has just become disabled (the top item's Move up) cannot hold the focus: its twin takes it.
    const focus = control === 'up' && to === 0 ? 'down' : control === 'down' && to === total - 1 ? 'up' : control;
    refocus.current = { item: item!, control: focus };
    setMessage(t('ordering.moved', { item: item!, position: to + 1, total }));
    onAnswer(index, encodeOrder(next), WHOLE);
  };

  const answered = decodeOrder(answer).length > 0;
  return (
    <div className="flex flex-col gap-2">
      <p id={`q-${index}-ordering-hint`} className="text-xs text-muted">
        {t('ordering.hint')}
      </p>
      <ol
        aria-label={t('ordering.listLabel', { number: index + 1 })}
        aria-describedby={`q-${index}-ordering-hint`}
        className="flex flex-col gap-2"
        data-testid={`ordering-${index}`}
      >
        {order.map((item, position) => (
          <li
            key={item}
            className="flex flex-wrap items-center gap-2 rounded-lg border border-line bg-surface px-3 py-2 text-sm"
          >
            <span aria-hidden className="w-5 shrink-0 text-xs font-semibold text-muted">
              {position + 1}.
            </span>
            <InlineRichText className="min-w-0 flex-1 text-ink">{item}</InlineRichText>
            <select
              ref={keep('position', item)}
              aria-label={t('ordering.position', { item })}
              value={position + 1}
              onChange={(e) => move(position, Number(e.target.value) - 1, 'position')}
              className={`${selectClass} h-8`}
            >
              {order.map((_other, p) => (
                <option key={p} value={p + 1}>
                  {p + 1}
                </option>
              ))}
            </select>
            <Button
              ref={keep('up', item)}
              size="sm"
              variant="secondary"
              aria-label={t('ordering.moveUp', { item })}
              title={t('ordering.moveUpShort')}
              disabled={position === 0}
              onClick={() => move(position, position - 1, 'up')}
            >
              <ArrowUp aria-hidden className="h-4 w-4" />
            </Button>
            <Button
              ref={keep('down', item)}
              size="sm"
              variant="secondary"
              aria-label={t('ordering.moveDown', { item })}
              title={t('ordering.moveDownShort')}
              disabled={position === total - 1}
              onClick={() => move(position, position + 1, 'down')}
            >
              <ArrowDown aria-hidden className="h-4 w-4" />
            </Button>
          </li>
        ))}
      </ol>
      <div className="flex flex-wrap items-center gap-3">
        <Button
          size="sm"
          variant="secondary"
          onClick={() => {
            setMessage(t('ordering.kept'));
            onAnswer(index, encodeOrder(order), WHOLE);
          }}
        >
          {t('ordering.keep')}
        </Button>
        {!answered && <p className="text-xs text-muted">{t('ordering.notSaved')}</p>}
      </div>
      <p role="status" aria-live="polite" className="sr-only" data-testid={`ordering-status-${index}`}>
        {message}
      </p>
    </div>
  );
}
