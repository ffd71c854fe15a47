import { ArrowRight, ClipboardCheck, Compass, GraduationCap, Sparkles } from 'lucide-react';
import { useEffect, type ReactElement, type ReactNode } from 'react';
import { Trans, useTranslation } from 'react-i18next';
import { Button } from './button.tsx';
import { cn } from './lib/cn.ts';

/** Lets each app render its router's link; defaults to a plain anchor. */
export type RenderLink = (props: { href: string; className?: string; children: ReactNode }) => ReactElement;
const anchor: RenderLink = ({ href, className, children }) => (
  <a href={href} className={className}>
    {children}
  </a>
);

/** An entry point is a link when it has an href, otherwise a button calling onClick. */
export type EntryAction = { href?: string; onClick?: () => void };

const navLink =
  'rounded-md px-3 py-2 text-sm font-medium text-muted transition-colors hover:bg-brand-50 hover:text-ink';

function Brand() {
  return (
    <span className="inline-flex items-center gap-2 text-base font-semibold text-ink">
      <span className="flex h-8 w-8 items-center justify-center rounded-lg bg-brand-600 text-white">
        <GraduationCap aria-hidden className="h-5 w-5" />
      </span>
      Assessly
    </span>
  );
}

type NavKey = 'home' | 'demo' | 'pricing' | 'about' | 'careers';

function SiteHeader({ links, renderLink }: { links: Array<{ key: NavKey; href: string }>; renderLink: RenderLink }) {
  const { t } = useTranslation('ui');
  return (
    <header className="border-b border-line bg-surface/80 backdrop-blur">
      <div className="mx-auto flex h-16 max-w-6xl items-center justify-between px-6">
        {renderLink({ href: '/', children: <Brand />, className: 'rounded-md' })}
        <nav aria-label={t('marketing.nav.label')}>
          <ul className="flex items-center gap-1">
            {links.map((link) => (
              <li key={link.key}>
                {renderLink({ href: link.href, className: navLink, children: t(`marketing.nav.${link.key}`) })}
              </li>
            ))}
          </ul>
        </nav>
      </div>
    </header>
  );
}

function EntryButton({
  action,
  variant,
  children,
}: {
  action: EntryAction;
  variant: 'primary' | 'secondary';
  children: ReactNode;
}) {
  if (action.href) {
    return (
      <Button asChild size="lg" variant={variant}>
        <a href={action.href}>{children}</a>
      </Button>
    );
  }
  return (
    <Button size="lg" variant={variant} onClick={action.onClick}>
      {children}
    </Button>
  );
}

type LandingPageProps = { createAssessment: EntryAction; takeAssessment: EntryAction; renderLink?: RenderLink };

/** Landing page `/` (docs/product.md#pages-and-messages): two entry points; Demo and Pricing lead nowhere yet. */
export function LandingPage({ createAssessment, takeAssessment, renderLink = anchor }: LandingPageProps) {
  const { t } = useTranslation('ui');
  const links: Array<{ key: NavKey; href: string }> = [
    { key: 'home', href: '/' },
    { key: 'demo', href: '#' },
    { key: 'pricing', href: '#' },
    { key: 'about', href: '/about' },
    { key: 'careers', href: '/careers' },
  ];
  const features = [
    { key: 'build', icon: <ClipboardCheck aria-hidden /> },
    { key: 'assistant', icon: <Sparkles aria-hidden /> },
    { key: 'fair', icon: <Compass aria-hidden /> },
  ] as const;
  return (
    <div className="min-h-full bg-gradient-to-b from-brand-50 via-canvas to-canvas">
      <SiteHeader links={links} renderLink={renderLink} />
      <main className="mx-auto max-w-6xl px-6 pb-20 pt-16">
        <section className="mx-auto max-w-3xl text-center">
          <p className="inline-flex items-center gap-2 rounded-full border border-brand-100 bg-surface px-3 py-1 text-xs font-medium text-brand-700">
            <Sparkles aria-hidden className="h-3.5 w-3.5" /> {t('marketing.tagline')}
          </p>
          <h1 className="mt-6 text-4xl font-bold tracking-tight text-ink sm:text-5xl">{t('marketing.heroTitle')}</h1>
          <p className="mx-auto mt-5 max-w-2xl text-lg text-muted">{t('marketing.heroText')}</p>
          <div className="mt-10 flex flex-wrap items-center justify-center gap-3">
            <EntryButton action={createAssessment} variant="primary">
              {t('marketing.createAssessment')} <ArrowRight aria-hidden className="h-4 w-4" />
            </EntryButton>
            <EntryButton action={takeAssessment} variant="secondary">
              {t('marketing.takeAssessment')}
            </EntryButton>
          </div>
        </section>
        <section aria-label={t('marketing.highlights')} className="mt-20 grid gap-4 md:grid-cols-3">
          {features.map((f) => (
            <div key={f.key} className="rounded-card border border-line bg-surface p-6 shadow-sm">
              <div className="mb-3 inline-flex rounded-lg bg-brand-50 p-2 text-brand-600 [&_svg]:h-5 [&_svg]:w-5">
                {f.icon}
              </div>
              <h2 className="text-base font-semibold text-ink">{t(`marketing.features.${f.key}.title`)}</h2>
              <p className="mt-1 text-sm text-muted">{t(`marketing.features.${f.key}.text`)}</p>
            </div>
          ))}
        </section>
      </main>
    </div>
  );
}

const placeholderLinks: Array<{ key: NavKey; href: string }> = [
  { key: 'home', href: '/' },
  { key: 'about', href: '/about' },
  { key: 'careers', href: '/careers' },
];

/** /about and /careers (docs/product.md#pages-and-messages): a Coming Soon message under the Home/About/Careers header. */
export function ComingSoonPage({ title, renderLink = anchor }: { title?: string; renderLink?: RenderLink }) {
  const { t } = useTranslation('ui');
  return (
    <div className="min-h-full">
      <SiteHeader links={placeholderLinks} renderLink={renderLink} />
      <main className="mx-auto flex max-w-3xl flex-col items-center px-6 py-24 text-center">
        {title && <p className="text-sm font-medium uppercase tracking-wide text-brand-600">{title}</p>}
        <h1 className="mt-2 text-4xl font-bold tracking-tight text-ink">{t('marketing.comingSoon.title')}</h1>
        <p className="mt-4 text-muted">{t('marketing.comingSoon.text')}</p>
      </main>
    </div>
  );
}

/** Any unknown path (docs/product.md#pages-and-messages): the missing path is logged for whoever reads the console. */
export function NotFoundPage({ path, renderLink = anchor }: { path: string; renderLink?: RenderLink }) {
  const { t } = useTranslation('ui');
  useEffect(() => {
    console.warn('404 Error: User attempted to access non-existent route:', path);
  }, [path]);
  return (
    <main className="flex min-h-full flex-col items-center justify-center px-6 py-24 text-center">
      <p className="text-6xl font-bold text-brand-600">404</p>
      <h1 className="mt-4 text-2xl font-semibold text-ink">{t('marketing.notFound.title')}</h1>
      <p className="mt-2 text-sm text-muted">
        <Trans
          t={t}
          i18nKey="marketing.notFound.nothingAt"
          values={{ path }}
          components={{ code: <code className={cn('rounded bg-slate-100 px-1.5 py-0.5 font-mono text-xs')} /> }}
        />
      </p>
      <div className="mt-8">
        {renderLink({
          href: '/',
          className: 'text-sm font-medium text-brand-600 underline underline-offset-4 hover:text-brand-700',
          children: t('marketing.notFound.returnHome'),
        })}
      </div>
    </main>
  );
}
