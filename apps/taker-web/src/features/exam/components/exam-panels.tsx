import { Button } from '@exam/ui/button';
import { Bot, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { Fragment, useRef, useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Panel, PanelGroup, PanelResizeHandle, type ImperativePanelHandle } from 'react-resizable-panels';
import { useNarrowScreen } from '../hooks/use-narrow-screen.ts';
import {
  activeTab,
  defaultSizes,
  MIN_SIZES,
  PANEL_ORDER,
  type PanelKey,
  type PanelVisibility,
} from '../lib/room-layout.ts';
import { PanelTabs, panelDomId, tabDomId } from './panel-tabs.tsx';

export type { PanelKey, PanelVisibility } from '../lib/room-layout.ts';

/** A collapsed assistant keeps a rail this wide; the other panels share the rest. */
const RAIL: CSSProperties = { flexGrow: 0, flexShrink: 0, flexBasis: '2.75rem' };
/** In the narrow layout the one panel on screen fills the width, whatever its column size was. */
const FILL: CSSProperties = { flexGrow: 1 };

function Handle({ hidden }: { hidden: boolean }) {
  const { t } = useTranslation('room');
  return (
    <PanelResizeHandle
      aria-label={t('resizePanels')}
      disabled={hidden}
      hidden={hidden}
      hitAreaMargins={{ coarse: 15, fine: 5 }}
      className="w-1.5 bg-line transition-colors hover:bg-brand-500 focus-visible:bg-brand-500 data-[resize-handle-state=drag]:bg-brand-500"
    />
  );
}

type AssistantColumnProps = {
  collapsed: boolean;
  /** No title bar or collapse control under tabs: the tab names the panel and gives the space back. */
  collapsible: boolean;
  onCollapse: () => void;
  onExpand: () => void;
  children: ReactNode;
};

/**
 * The assistant's column. Collapsed, it is a thin rail with a button to open it again; the conversation stays
 * mounted (hidden) so nothing typed or streaming is lost.
 */
function AssistantColumn({ collapsed, collapsible, onCollapse, onExpand, children }: AssistantColumnProps) {
  const { t } = useTranslation('room');
  return (
    <div
      className={`flex h-full flex-col bg-surface ${collapsed ? 'border-l border-line' : ''}`}
      data-testid="assistant-frame"
      data-collapsed={collapsed}
    >
      {collapsed ? (
        <div className="flex flex-col items-center gap-2 py-2">
          <Button size="icon" variant="ghost" aria-label={t('expandAssistant')} onClick={onExpand}>
            <ChevronsLeft aria-hidden className="h-4 w-4" />
          </Button>
          <Bot aria-hidden className="h-5 w-5 text-muted" />
        </div>
      ) : (
        collapsible && (
          <div className="flex items-center justify-between border-b border-line px-3 py-1">
            <span className="text-xs font-semibold uppercase tracking-wide text-muted">{t('assistantTitle')}</span>
            <Button size="icon" variant="ghost" aria-label={t('collapseAssistant')} onClick={onCollapse}>
              <ChevronsRight aria-hidden className="h-4 w-4" />
            </Button>
          </div>
        )
      )}
      <div className="min-h-0 flex-1" hidden={collapsed}>
        {children}
      </div>
    </div>
  );
}

type ExamPanelsProps = {
  visible: PanelVisibility;
  questions: ReactNode;
  /** Null when the exam has no coding workspace: no panel, no tab. */
  workspace: ReactNode | null;
  /** Null when the exam has no assistant: no panel, no tab. */
  assistant: ReactNode | null;
};

/**
 * The exam body (docs/product.md#pages-and-messages): resizable columns whose handles take arrow keys once
 * focused, or, on a narrow screen, one panel at a time under tabs. Both layouts are the same elements, styled
 * differently, so switching tabs or crossing the width never remounts a panel: the editor frame does not
 * reload and the conversation keeps its state.
 */
export function ExamPanels({ visible, questions, workspace, assistant }: ExamPanelsProps) {
  const narrow = useNarrowScreen();
  const assistantRef = useRef<ImperativePanelHandle>(null);
  const [collapsed, setCollapsed] = useState(false);
  const [chosenTab, setChosenTab] = useState<PanelKey>('questions');
  const content: Record<PanelKey, ReactNode | null> = { questions, workspace, assistant };
  // Under tabs every enabled panel has its tab: the tabs are how the candidate picks a panel there.
  const shown = PANEL_ORDER.filter(
    (key) => (narrow || visible[key]) && content[key] !== null && content[key] !== undefined,
  );
  const tab = activeTab(shown, chosenTab);
  const sizes = defaultSizes(shown);
  const railed = collapsed && !narrow;
  const collapseAssistant = (next: boolean) => {
    setCollapsed(next);
    // The group hands the column's share to the other panels. Before its first layout it has no sizes and throws;
    // the rail's own width (RAIL) applies either way.
    try {
      if (next) assistantRef.current?.collapse();
      else assistantRef.current?.expand();
    } catch (error) {
      console.warn('The panel group could not resize the assistant yet', error);
    }
  };

  const body = (key: PanelKey): ReactNode => {
    if (key === 'questions')
      return (
        <div className="h-full bg-canvas">
          {/* A readable line length when the questions have the whole width. */}
          <div className="mx-auto h-full max-w-4xl">{questions}</div>
        </div>
      );
    if (key === 'assistant')
      return (
        <AssistantColumn
          collapsed={railed}
          collapsible={!narrow}
          onCollapse={() => collapseAssistant(true)}
          onExpand={() => collapseAssistant(false)}
        >
          {assistant}
        </AssistantColumn>
      );
    return workspace;
  };

  return (
    <div className="flex min-h-0 flex-1 flex-col" data-layout={narrow ? 'tabs' : 'columns'} data-testid="exam-panels">
      {narrow && shown.length > 1 && tab && <PanelTabs panels={shown} active={tab} onSelect={setChosenTab} />}
      <PanelGroup key={shown.join('+')} direction="horizontal" className="min-h-0 flex-1">
        {shown.map((key, i) => (
          <Fragment key={key}>
            {i > 0 && <Handle hidden={narrow || (railed && key === 'assistant')} />}
            <Panel
              id={panelDomId(key)}
              order={PANEL_ORDER.indexOf(key)}
              defaultSize={sizes[key]}
              minSize={MIN_SIZES[key]}
              data-testid={`panel-${key}`}
              hidden={narrow && key !== tab}
              style={narrow ? FILL : key === 'assistant' && railed ? RAIL : undefined}
              {...(narrow && shown.length > 1 ? { role: 'tabpanel', 'aria-labelledby': tabDomId(key) } : {})}
              {...(key === 'assistant'
                ? {
                    ref: assistantRef,
                    collapsible: true,
                    collapsedSize: 0,
                    onCollapse: () => setCollapsed(true),
                    onExpand: () => setCollapsed(false),
                  }
                : {})}
            >
              {body(key)}
            </Panel>
          </Fragment>
        ))}
      </PanelGroup>
    </div>
  );
}
