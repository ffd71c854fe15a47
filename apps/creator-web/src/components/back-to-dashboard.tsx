import { Button } from '@exam/ui/button';
import { ArrowLeft } from 'lucide-react';
import { Link } from 'react-router';
import { paths } from '../config/paths.ts';
import { useTranslation } from 'react-i18next';

/** The way back from a page reached from the dashboard (a result, a candidate). */
export function BackToDashboard() {
  const { t } = useTranslation('common');
  return (
    <Button asChild variant="ghost" size="sm">
      <Link to={paths.dashboard}>
        <ArrowLeft aria-hidden className="h-4 w-4" /> {t('backToDashboard.backToDashboard')}
      </Link>
    </Button>
  );
}
