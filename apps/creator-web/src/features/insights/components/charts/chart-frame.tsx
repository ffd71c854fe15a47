import { Card, CardHeader } from '@exam/ui/card';
import { Info } from 'lucide-react';
import { useId, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

/** Before the first measure (and in jsdom, which has no layout) a chart is drawn this wide. */
const FALLBACK_WIDTH = 640;

/**
 * The width of the box a chart sits in, followed as the page resizes. Charts get explicit pixel sizes from it
 * instead of Recharts' ResponsiveContainer, which draws nothing until it has measured a non-zero box.
 */
export function useMeasuredWidth() {
  const ref = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const element = ref.current;
    if (!element) return;
    const measure = () => setWidth(element.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width > 0 ? width : FALLBACK_WIDTH] as const;
}

type ChartFrameProps = {
  /** Used for test ids and the section's anchor. */
  name: string;
  title: string;
  /** What the chart shows and how to read it (the figure's caption). */
  caption: string;
  /** The figures in a sentence, for those who do not see the chart. */
  summary?: string | undefined;
  /** What is missing when the chart cannot be drawn: shown instead of empty axes. */
  needs?: string | null | undefined;
  /** The chart's data as a table: hidden visually (still read by screen readers) until shown. */
  table?: ReactNode;
  controls?: ReactNode;
  children?: (width: number) => ReactNode;
};

/**
 * A chart as a figure: a caption, a text summary and its data table as the accessible alternative. Without
 * enough data it says what it needs instead of drawing axes with nothing on them.
 */
export function ChartFrame({ name, title, caption, summary, needs, table, controls, children }: ChartFrameProps) {
  const { t } = useTranslation('insights');
  const [ref, width] = useMeasuredWidth();
  const [showTable, setShowTable] = useState(false);
  const tableId = useId();
  return (
    <Card data-testid={`chart-${name}`} className="min-w-0">
      <CardHeader title={title} actions={controls} />
      <figure className="m-0 px-5 py-4">
        {needs ? (
          <p
            data-testid="chart-needs"
            className="flex items-start gap-2 rounded-lg border border-dashed border-line bg-canvas px-4 py-6 text-sm text-muted"
          >
            <Info aria-hidden className="mt-0.5 h-4 w-4 shrink-0" />
            {needs}
          </p>
        ) : (
          <div ref={ref} className="w-full overflow-hidden text-ink">
            {children?.(width)}
          </div>
        )}
        <figcaption className="mt-3 text-sm text-muted">
          {caption}
          {!needs && summary && <span className="mt-1 block text-ink">{summary}</span>}
        </figcaption>
        {!needs && table && (
          <div className="mt-3">
            <button
              type="button"
              className="text-sm font-medium text-brand-600 underline-offset-4 hover:underline"
              aria-expanded={showTable}
              aria-controls={tableId}
              onClick={() => setShowTable((shown) => !shown)}
            >
              {showTable ? t('charts.hideTable') : t('charts.showTable')}
            </button>
            {/* Shown, a wide table scrolls sideways in a frame the keyboard can reach and scroll. */}
            <div
              id={tableId}
              className={showTable ? 'mt-2 overflow-x-auto rounded-lg border border-line' : 'sr-only'}
              {...(showTable ? { role: 'region', 'aria-label': title, tabIndex: 0 } : {})}
            >
              {table}
            </div>
          </div>
        )}
      </figure>
    </Card>
  );
}

/** Props every chart's SVG gets: an image with a name, no Recharts keyboard layer (the table is the way in). */
export function svgA11y(label: string) {
  return { role: 'img', title: label, 'aria-label': label, accessibilityLayer: false } as const;
}

/** Colours from the theme's variables, so dark mode and high contrast recolour the charts too. */
export const chartColors = {
  primary: 'var(--color-brand-600)',
  secondary: 'var(--color-warning)',
  good: 'var(--color-success)',
  bad: 'var(--color-danger)',
  ink: 'var(--color-ink)',
  muted: 'var(--color-muted)',
  grid: 'var(--color-line)',
} as const;

export const axisProps = {
  stroke: chartColors.muted,
  tick: { fill: chartColors.muted, fontSize: 12 },
} as const;

/** Recharts' tooltip in the theme's colours. */
export const tooltipProps = {
  contentStyle: { background: 'var(--color-surface)', borderColor: 'var(--color-line)', color: 'var(--color-ink)' },
  itemStyle: { color: 'var(--color-ink)' },
  labelStyle: { color: 'var(--color-ink)' },
  cursor: { fill: 'var(--color-line)', fillOpacity: 0.4 },
} as const;
