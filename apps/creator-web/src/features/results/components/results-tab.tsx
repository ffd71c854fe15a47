import { Card } from '@exam/ui/card';
import { EmptyState } from '@exam/ui/empty-state';
import { BarChart3 } from 'lucide-react';

/** The dashboard's Results tab (spec section 2); grading results arrive with the results feature. */
export function ResultsTab() {
  return (
    <Card>
      <EmptyState icon={<BarChart3 aria-hidden />} title="No results yet" description="Submissions appear here once candidates finish a published exam." />
    </Card>
  );
}
