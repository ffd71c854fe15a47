import { Button } from '@exam/ui/button';
import { userMessageOf } from '../../../lib/api-client.ts';
import { useTranslation } from 'react-i18next';

/** The parts of a paged (infinite) query the foot of its list needs. */
type PagedList = {
  hasNextPage: boolean;
  isFetchingNextPage: boolean;
  isFetchNextPageError: boolean;
  error: unknown;
  fetchNextPage: () => Promise<unknown>;
};

type LoadMoreProps = {
  /** Results on screen so far. */
  shown: number;
  pages: PagedList;
  /** What the list holds, for the count: 'results', 'submissions'. */
  noun: string;
};

/**
 * The foot of a paged results list: how many are shown, a button for the next page while there is one,
 * and why the last 'Load more' failed (the rows already shown stay).
 */
export function LoadMore({ shown, pages, noun }: LoadMoreProps) {
  const { t } = useTranslation('results');
  return (
    <>
      <div className="flex items-center justify-between gap-3 border-t border-line px-5 py-3 text-sm text-muted">
        <span aria-live="polite" data-testid="list-count">
          {pages.hasNextPage
            ? t('loadMore.showingTheShownMost', { shown, noun })
            : t('loadMore.showingAllShownNoun', { shown, noun })}
        </span>
        {pages.hasNextPage && (
          <Button
            variant="secondary"
            size="sm"
            onClick={() => void pages.fetchNextPage()}
            disabled={pages.isFetchingNextPage}
          >
            {pages.isFetchingNextPage ? t('loadMore.loading') : t('loadMore.loadMore')}
          </Button>
        )}
      </div>
      {pages.isFetchNextPageError && (
        <p role="alert" className="px-5 pb-3 text-sm text-danger">
          {userMessageOf(pages.error)}
        </p>
      )}
    </>
  );
}
