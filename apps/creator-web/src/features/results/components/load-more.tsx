import { Button } from '@exam/ui/button';

type LoadMoreProps = {
  /** Results on screen so far. */
  shown: number;
  hasMore: boolean;
  loading: boolean;
  onLoadMore: () => void;
  /** What the list holds, for the count: 'results', 'submissions'. */
  noun: string;
};

/** The foot of a paged results list: how many are shown, and a button for the next page while there is one. */
export function LoadMore({ shown, hasMore, loading, onLoadMore, noun }: LoadMoreProps) {
  return (
    <div className="flex items-center justify-between gap-3 border-t border-line px-5 py-3 text-sm text-muted">
      <span aria-live="polite" data-testid="list-count">
        {hasMore ? `Showing the ${shown} most recent ${noun}` : `Showing all ${shown} ${noun}`}
      </span>
      {hasMore && (
        <Button variant="secondary" size="sm" onClick={onLoadMore} disabled={loading}>
          {loading ? 'Loading…' : 'Load more'}
        </Button>
      )}
    </div>
  );
}
