import { Button } from '@exam/ui/button';
import { Bot, ChevronsLeft, ChevronsRight } from 'lucide-react';
import { useRef, useState, type ReactNode } from 'react';
import { Panel, PanelGroup, PanelResizeHandle, type ImperativePanelHandle } from 'react-resizable-panels';

export type PanelKey = 'questions' | 'workspace' | 'assistant';
export type PanelVisibility = Record<PanelKey, boolean>;

/** Default and minimum sizes in percent (docs/product.md#pages-and-messages). */
const SIZES: Record<PanelKey, { defaultSize: number; minSize: number }> = {
  questions: { defaultSize: 25, minSize: 15 },
  workspace: { defaultSize: 60, minSize: 20 },
  assistant: { defaultSize: 15, minSize: 10 },
};
const ORDER: PanelKey[] = ['questions', 'workspace', 'assistant'];
const ASSISTANT_COLLAPSED = 3;

/** Defaults of the shown panels, with the space of hidden ones given to the widest shown panel. */
export function defaultSizes(shown: PanelKey[]): Record<PanelKey, number> {
  const sizes = { questions: 0, workspace: 0, assistant: 0 };
  for (const key of shown) sizes[key] = SIZES[key].defaultSize;
  const widest = shown.includes('workspace') ? 'workspace' : shown.includes('questions') ? 'questions' : 'assistant';
  sizes[widest] += 100 - shown.reduce((sum, key) => sum + sizes[key], 0);
  return sizes;
}

function Handle() {
  return (
    <PanelResizeHandle
      aria-label="Resize panels"
      hitAreaMargins={{ coarse: 15, fine: 5 }}
      className="w-1.5 bg-line transition-colors hover:bg-brand-500 focus-visible:bg-brand-500 data-[resize-handle-state=drag]:bg-brand-500"
    />
  );
}

type ExamPanelsProps = {
  visible: PanelVisibility;
  questions: ReactNode;
  workspace: ReactNode | null;
  assistant: ReactNode;
};

/** The exam body: three horizontal resizable panels; handles take arrow keys once focused. */
export function ExamPanels({ visible, questions, workspace, assistant }: ExamPanelsProps) {
  const assistantRef = useRef<ImperativePanelHandle>(null);
  const [assistantCollapsed, setAssistantCollapsed] = useState(false);
  const shown = ORDER.filter((key) => visible[key] && (key !== 'workspace' || workspace !== null));
  const sizes = defaultSizes(shown);
  const content: Record<PanelKey, ReactNode> = {
    questions,
    workspace,
    assistant: (
      <div className="flex h-full flex-col bg-surface" data-testid="assistant-frame">
        <div className="flex items-center justify-between border-b border-line px-2 py-1">
          {!assistantCollapsed && (
            <span className="text-xs font-semibold uppercase tracking-wide text-muted">AI Assistant</span>
          )}
          <Button
            size="icon"
            variant="ghost"
            aria-label={assistantCollapsed ? 'Expand assistant' : 'Minimize assistant'}
            onClick={() => (assistantCollapsed ? assistantRef.current?.expand() : assistantRef.current?.collapse())}
          >
            {assistantCollapsed ? (
              <ChevronsLeft aria-hidden className="h-4 w-4" />
            ) : (
              <ChevronsRight aria-hidden className="h-4 w-4" />
            )}
          </Button>
        </div>
        {assistantCollapsed ? (
          <Bot aria-hidden className="mx-auto mt-3 h-5 w-5 text-muted" />
        ) : (
          <div className="min-h-0 flex-1">{assistant}</div>
        )}
      </div>
    ),
  };
  return (
    <PanelGroup key={shown.join('+')} direction="horizontal" className="min-h-0 flex-1">
      {shown.map((key, i) => (
        <PanelSlot key={key} index={i}>
          <Panel
            id={key}
            order={ORDER.indexOf(key)}
            defaultSize={sizes[key]}
            minSize={SIZES[key].minSize}
            data-testid={`panel-${key}`}
            {...(key === 'assistant'
              ? {
                  ref: assistantRef,
                  collapsible: true,
                  collapsedSize: ASSISTANT_COLLAPSED,
                  onCollapse: () => setAssistantCollapsed(true),
                  onExpand: () => setAssistantCollapsed(false),
                }
              : {})}
          >
            {content[key]}
          </Panel>
        </PanelSlot>
      ))}
    </PanelGroup>
  );
}

function PanelSlot({ index, children }: { index: number; children: ReactNode }) {
  return (
    <>
      {index > 0 && <Handle />}
      {children}
    </>
  );
}
