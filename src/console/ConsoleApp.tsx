// The console's frame: the sign-in page until an operator is signed in, the first password's change
// until it is done, then the navigation of the operator's role beside the page of the hash route.
import { useEffect, useState } from 'react';
import { useSnapshot } from 'valtio';
import { Link, Redirect, Route, Router, Switch, useLocation } from 'wouter';
import { useHashLocation } from 'wouter/use-hash-location';
import { Trans } from '@lingui/react/macro';
import { consoleMe, consoleSignOut, type OperatorRole } from '../api-contract/console.ts';
import { consoleApi } from './api.ts';
import { consoleSession, endSession } from './session.ts';
import { LanguageSwitch, RoleName } from './parts.tsx';
import { ChangePasswordPage, SignInPage } from './SignInPages.tsx';
import { QueuesPage } from './QueuesPage.tsx';
import { RechargePage } from './RechargePage.tsx';
import { WithdrawalPage } from './WithdrawalPage.tsx';
import { CertificationPage } from './CertificationPage.tsx';
import { CustomerPage, CustomersPage } from './CustomersPages.tsx';
import { InboxNavLabel, InboxPage } from './InboxPage.tsx';
import { CannedRepliesPage } from './CannedRepliesPage.tsx';
import { OperatorsPage } from './OperatorsPage.tsx';
import { AuditPage } from './AuditPage.tsx';
import { ContentPage } from './ContentPage.tsx';
import { RewardsPage } from './RewardsPage.tsx';
import { ProductsPage } from './ProductsPage.tsx';
import { HousePage } from './HousePage.tsx';
import { ChannelsPage } from './ChannelsPage.tsx';
import { SystemPage } from './SystemPage.tsx';

/** A page of the console: its hash route and, when the navigation lists it, its entry there. */
interface ConsolePage {
  /** The route's pattern, as wouter reads it ('/withdrawal/:id'). */
  path: string;
  /** The page at that route, given the route's parameters. */
  page: (params: { id?: string }) => React.ReactNode;
  /** Its entry in the navigation (none for a page reached from another): its label, where it links when that is not
   * `path`, and the other paths it is lit on. */
  nav?: { label: React.ReactNode; href?: string; also?: string[] };
}

/**
 * Each role's pages, its first page first (where it starts) and the navigation in this order. A page is one role's:
 * the server refuses the others' calls, and an address of another role's page is said to be theirs (NotYourPage).
 */
const PAGES: Record<OperatorRole, ConsolePage[]> = {
  reviewer: [
    {
      path: '/queues',
      page: () => <QueuesPage />,
      nav: { label: <Trans>Review queues</Trans>, also: ['/recharge/', '/withdrawal/', '/certification/'] },
    },
    { path: '/recharge/:id', page: ({ id = '' }) => <RechargePage key={id} id={id} /> },
    { path: '/withdrawal/:id', page: ({ id = '' }) => <WithdrawalPage key={id} id={id} /> },
    { path: '/certification/:id', page: ({ id = '' }) => <CertificationPage key={id} id={id} /> },
    {
      path: '/customers',
      page: () => <CustomersPage />,
      nav: { label: <Trans>Customers</Trans>, also: ['/customer/'] },
    },
    { path: '/customer/:id', page: ({ id = '' }) => <CustomerPage key={id} id={id} /> },
    { path: '/inbox/canned', page: () => <CannedRepliesPage /> },
    { path: '/inbox/:id?', page: ({ id }) => <InboxPage id={id} />, nav: { label: <InboxNavLabel />, href: '/inbox' } },
  ],
  content: [
    { path: '/content', page: () => <ContentPage />, nav: { label: <Trans>Content</Trans> } },
    { path: '/rewards', page: () => <RewardsPage />, nav: { label: <Trans>Rewards</Trans> } },
  ],
  admin: [
    { path: '/operators', page: () => <OperatorsPage />, nav: { label: <Trans>Operators</Trans> } },
    { path: '/products', page: () => <ProductsPage />, nav: { label: <Trans>Products</Trans> } },
    { path: '/house', page: () => <HousePage />, nav: { label: <Trans>House</Trans> } },
    { path: '/channels', page: () => <ChannelsPage />, nav: { label: <Trans>Deposit channels</Trans> } },
    { path: '/audit', page: () => <AuditPage />, nav: { label: <Trans>Audit log</Trans> } },
    { path: '/system', page: () => <SystemPage />, nav: { label: <Trans>System</Trans> } },
  ],
};

/** Where each role starts: its first page. */
const homeOf = (role: OperatorRole) => PAGES[role][0]!.path;
/** The first part of a path ('/withdrawal/12' → 'withdrawal'): pages are matched by it whole ('/systemd' is none). */
const firstPart = (path: string) => path.split('/')[1] ?? '';

/** Which role's page `path` is ('/withdrawal/12' is a reviewer's; '/systemd' no page at all), or null for none. */
const ownerOf = (path: string) =>
  (Object.keys(PAGES) as OperatorRole[]).find((role) =>
    PAGES[role].some((page) => firstPart(page.path) === firstPart(path)),
  ) ?? null;

/**
 * An address the operator's role has no page at: another role's page (a link a colleague sent) is said so, with the
 * way to the operator's own first page; any other address goes there at once.
 */
function NotYourPage({ role }: { role: OperatorRole }) {
  const [location] = useLocation();
  const owner = ownerOf(location);
  if (!owner || owner === role) return <Redirect to={homeOf(role)} replace />;
  return (
    <section className="console-not-yours">
      <p role="alert">
        <Trans>
          This page is for operators with the <RoleName role={owner} /> role; you are signed in with the{' '}
          <RoleName role={role} /> role.
        </Trans>
      </p>
      <Link href={homeOf(role)}>
        <Trans>Go to your first page</Trans>
      </Link>
    </section>
  );
}

export function ConsoleApp() {
  const session = useSnapshot(consoleSession);
  const [checking, setChecking] = useState(Boolean(session.token && !session.operator));
  useEffect(() => {
    if (!session.token || session.operator) return setChecking(false);
    // A reload keeps the token: ask who it is (ret -1 sends the operator back to sign in).
    consoleApi(consoleMe)
      .then((operator) => void (consoleSession.operator = operator))
      .catch(() => undefined)
      .finally(() => setChecking(false));
  }, [session.token, session.operator]);
  return (
    <Router hook={useHashLocation}>
      {checking ? null : !session.token || !session.operator ? (
        <SignInPage />
      ) : session.operator.must_change_password ? (
        <ChangePasswordPage first />
      ) : (
        <Frame role={session.operator.role} name={session.operator.name} />
      )}
    </Router>
  );
}

function Frame({ role, name }: { role: OperatorRole; name: string }) {
  return (
    <div className="console-frame">
      <header className="console-top">
        <strong className="console-brand">
          <Trans>Coinvest console</Trans>
        </strong>
        {/* The dot stays with the name (a no-break space before it): on a phone the role goes under them, never the
            dot alone on a line of its own. */}
        <span className="console-who">
          {name}
          {'\u00a0· '}
          <RoleName role={role} />
        </span>
        <LanguageSwitch />
        <SignOutButton />
      </header>
      <Nav role={role} />
      <main className="console-main">
        <Switch>
          {PAGES[role].map(({ path, page }) => (
            <Route key={path} path={path}>
              {(params: { id?: string }) => page(params)}
            </Route>
          ))}
          <Route path="/password">
            <ChangePasswordPage />
          </Route>
          <Route>
            <NotYourPage role={role} />
          </Route>
        </Switch>
      </main>
    </div>
  );
}

function Nav({ role }: { role: OperatorRole }) {
  const [location] = useLocation();
  const item = (path: string, label: React.ReactNode, also: string[] = []) => (
    <Link
      key={path}
      href={path}
      className={[path, ...also].some((prefix) => location.startsWith(prefix)) ? 'active' : ''}
    >
      {label}
    </Link>
  );
  return (
    <nav className="console-nav" aria-label="Console">
      {PAGES[role].map(({ path, nav }) => nav && item(nav.href ?? path, nav.label, nav.also))}
      {item('/password', <Trans>Change password</Trans>)}
    </nav>
  );
}

function SignOutButton() {
  return (
    <button
      type="button"
      className="console-sign-out"
      onClick={() => {
        void consoleApi(consoleSignOut).catch(() => undefined);
        endSession();
      }}
    >
      <Trans>Sign out</Trans>
    </button>
  );
}
