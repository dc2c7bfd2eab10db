// The shell: skip link, header with the navigation, the language switch and the signed-in staff
// member, then the page of the current route.
import { t, useLocale } from './i18n';
import { FeedbackPage } from './pages/feedback';
import { GapsPage } from './pages/gaps';
import { QueuePage } from './pages/queue';
import { ReportsPage } from './pages/reports';
import { SignInPage } from './pages/sign-in';
import { TicketPage } from './pages/ticket';
import { chooseLocale, endSession, sessionStore } from './session';
import { Loading, PageTitle, personName } from './ui/parts';
import { Link, locationStore, type Route, routeOf } from './ui/router';
import { useStore } from './ui/store';

interface NavItem {
  href: string;
  key: 'nav.queue' | 'nav.reports' | 'nav.feedback' | 'nav.gaps';
  route: Route['name'];
  /** Shown to administrators only (the feedback inbox's endpoint is theirs). */
  adminOnly?: boolean;
}

const NAV: NavItem[] = [
  { href: '/', key: 'nav.queue', route: 'queue' },
  { href: '/reports', key: 'nav.reports', route: 'reports' },
  { href: '/feedback', key: 'nav.feedback', route: 'feedback', adminOnly: true },
  { href: '/gaps', key: 'nav.gaps', route: 'gaps' },
];

function Page({ route }: { route: Route }) {
  switch (route.name) {
    case 'queue':
      return <QueuePage />;
    case 'ticket':
      return <TicketPage id={route.id} />;
    case 'reports':
      return <ReportsPage />;
    case 'feedback':
      return <FeedbackPage />;
    case 'gaps':
      return <GapsPage />;
    case 'sign-in':
      return <SignInPage />;
    default:
      return <PageTitle text={t('error.not_found')} />;
  }
}

export function App() {
  const locale = useLocale();
  const session = useStore(sessionStore);
  const here = useStore(locationStore);
  const route = routeOf(here.path);
  const switchLanguage = () => void chooseLocale(locale === 'fa' ? 'en' : 'fa');
  const signedIn = session.status === 'signed-in';
  return (
    <>
      <a class="skip" href="#main">
        {t('app.skip')}
      </a>
      <header class="top">
        <span class="brand">{t('app.name')}</span>
        {signedIn && (
          <nav aria-label={t('app.main_nav')}>
            <ul>
              {NAV.filter((item) => !item.adminOnly || session.credential.user.role === 'admin').map((item) => (
                <li key={item.href}>
                  <Link href={item.href} aria-current={route.name === item.route ? 'page' : undefined}>
                    {t(item.key)}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
        )}
        <div class="who">
          {signedIn && (
            <span class="muted">{t('app.signed_in_as', { name: personName(session.credential.user) })}</span>
          )}
          <button type="button" lang={locale === 'fa' ? 'en' : 'fa'} onClick={switchLanguage}>
            {t('app.language')}
          </button>
          {signedIn && (
            <button type="button" onClick={() => void endSession()}>
              {t('app.sign_out')}
            </button>
          )}
        </div>
      </header>
      <main id="main" tabIndex={-1}>
        {session.status === 'loading' ? <Loading /> : signedIn ? <Page route={route} /> : <SignInPage />}
      </main>
    </>
  );
}
