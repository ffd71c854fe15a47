import { cn } from '@exam/ui/lib/cn';
import { useRef, type KeyboardEvent } from 'react';
import { useTranslation } from 'react-i18next';
import type { PanelKey } from '../lib/room-layout.ts';

export const panelDomId = (key: PanelKey) => `exam-panel-${key}`;
export const tabDomId = (key: PanelKey) => `exam-tab-${key}`;

type PanelTabsProps = { panels: PanelKey[]; active: PanelKey; onSelect: (key: PanelKey) => void };

/**
 * The narrow layout's tab list (WAI-ARIA tabs: arrow keys, Home and End move and select, one tab in the
 * focus order). The panels it controls are the room's own panel elements, which stay mounted when hidden;
 * that is why this is not Radix's Tabs, whose contents are its own elements.
 */
export function PanelTabs({ panels, active, onSelect }: PanelTabsProps) {
  const { t } = useTranslation('room');
  const buttons = useRef(new Map<PanelKey, HTMLButtonElement>());
  const onKeyDown = (event: KeyboardEvent) => {
    const at = panels.indexOf(active);
    const target = {
      ArrowRight: panels[(at + 1) % panels.length],
      ArrowLeft: panels[(at - 1 + panels.length) % panels.length],
      Home: panels[0],
      End: panels.at(-1),
    }[event.key];
    if (!target) return;
    event.preventDefault();
    onSelect(target);
    buttons.current.get(target)?.focus();
  };
  return (
    <div
      role="tablist"
      aria-label={t('tabsLabel')}
      className="flex gap-1 border-b border-line bg-surface px-2 pt-1.5"
      onKeyDown={onKeyDown}
    >
      {panels.map((key) => (
        <button
          key={key}
          ref={(node) => {
            if (node) buttons.current.set(key, node);
            else buttons.current.delete(key);
          }}
          type="button"
          role="tab"
          id={tabDomId(key)}
          aria-selected={key === active}
          aria-controls={panelDomId(key)}
          tabIndex={key === active ? 0 : -1}
          onClick={() => onSelect(key)}
          className={cn(
            '-mb-px rounded-t-md border-b-2 px-4 py-2 text-sm font-medium transition-colors focus-visible:outline-2 focus-visible:outline-brand-500',
            key === active ? 'border-brand-600 text-brand-700' : 'border-transparent text-muted hover:text-ink',
          )}
        >
          {t(`panels.${key}`)}
        </button>
      ))}
    </div>
  );
}
