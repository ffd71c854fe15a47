import type { PublicSection } from '@exam/domain/sections';
import { Bot, BotOff } from 'lucide-react';
import { useTranslation } from 'react-i18next';
import { formatMinutes } from '../../../i18n/format.ts';

/**
 * The exam's sections as the briefing lists them before Start (docs/product.md#sections): each one's title,
 * whether the assistant answers in it, its own time limit and how many questions the candidate gets in it.
 */
export function BriefingSections({ sections }: { sections: readonly PublicSection[] }) {
  const { t } = useTranslation('start');
  if (sections.length === 0) return null;
  return (
    <section className="mt-6" aria-labelledby="briefing-sections-heading" data-testid="briefing-sections">
      <h2 id="briefing-sections-heading" className="text-sm font-semibold text-ink">
        {t('briefing.sections.label')}
      </h2>
      <p className="mt-1 text-xs text-muted">{t('briefing.sections.intro')}</p>
      <ol className="mt-2 flex flex-col rounded-lg border border-line px-4">
        {sections.map((section, index) => {
          const title = section.title.trim();
          return (
            <li
              key={section.id}
              className="flex flex-wrap items-baseline justify-between gap-x-4 gap-y-1 border-b border-line py-2 text-sm last:border-b-0"
              data-testid={`briefing-section-${index}`}
            >
              <span className="font-medium text-ink">
                {title
                  ? t('briefing.sections.name', { number: index + 1, title })
                  : t('briefing.sections.untitled', { number: index + 1 })}
              </span>
              <span className="flex flex-wrap items-center gap-x-3 text-muted">
                <span className="inline-flex items-center gap-1">
                  {section.assistant ? <Bot aria-hidden className="h-3.5 w-3.5" /> : <BotOff aria-hidden className="h-3.5 w-3.5" />}
                  {section.assistant ? t('briefing.sections.assistantOn') : t('briefing.sections.assistantOff')}
                </span>
                <span>
                  {section.timeLimitMinutes === null
                    ? t('briefing.sections.noTimeLimit')
                    : formatMinutes(section.timeLimitMinutes)}
                </span>
                <span>{t('briefing.sections.questions', { count: section.questionCount })}</span>
              </span>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
