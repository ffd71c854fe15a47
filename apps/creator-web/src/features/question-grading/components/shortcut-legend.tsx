import { Card, CardBody, CardHeader } from '@exam/ui/card';
import type { ParseKeys } from 'i18next';
import { useTranslation } from 'react-i18next';

/** The keys and what they do, in the order docs/product.md lists them. */
const KEYS: ReadonlyArray<{
  keys: Array<string | ParseKeys<'question-grading'>>;
  action: ParseKeys<'question-grading'>;
}> = [
  { keys: ['J', '↓'], action: 'keys.next' },
  { keys: ['K', '↑'], action: 'keys.previous' },
  { keys: ['1–9'], action: 'keys.criterion' },
  { keys: ['F'], action: 'keys.full' },
  { keys: ['0'], action: 'keys.zero' },
  { keys: ['A'], action: 'keys.accept' },
  { keys: ['keys.enter'], action: 'keys.save' },
  { keys: ['keys.ctrl', 'keys.enter'], action: 'keys.saveFromFeedback' },
  { keys: ['N'], action: 'keys.names' },
];

/** Always on screen: the grader learns the keys by seeing them, not by finding a help page. */
export function ShortcutLegend() {
  const { t } = useTranslation('question-grading');
  return (
    <Card role="region" aria-label={t('keys.title')}>
      <CardHeader title={t('keys.title')} description={t('keys.notWhileTyping')} />
      <CardBody>
        <dl className="grid grid-cols-[auto_1fr] gap-x-3 gap-y-1 text-sm">
          {KEYS.map(({ keys, action }) => (
            <div key={action} className="contents">
              <dt className="flex gap-1">
                {keys.map((key) => (
                  <kbd key={key} className="rounded border border-line bg-canvas px-1.5 text-xs">
                    {key.startsWith('keys.') ? t(key as ParseKeys<'question-grading'>) : key}
                  </kbd>
                ))}
              </dt>
              <dd className="text-muted">{t(action)}</dd>
            </div>
          ))}
        </dl>
      </CardBody>
    </Card>
  );
}
