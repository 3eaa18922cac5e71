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
import { SystemPage } from './SystemPage.tsx';

/** Where each role starts. */
const HOME: Record<OperatorRole, string> = { reviewer: '/queues', admin: '/operators', content: '/content' };
/** The pages of each role, by the first part of their path (a page is one role's: the server refuses the others'
 * calls). */
const PAGES_OF: Record<OperatorRole, string[]> = {
  reviewer: ['queues', 'recharge', 'withdrawal', 'certification', 'customers', 'customer', 'inbox'],
  content: ['content', 'rewards'],
  admin: ['operators', 'products', 'house', 'audit', 'system'],
};

/** Which role's page `path` is ('/withdrawal/12' is a reviewer's; '/systemd' no page at all), or null for none. */
const ownerOf = (path: string) => {
  const first = path.split('/')[1] ?? '';
  return (Object.keys(PAGES_OF) as OperatorRole[]).find((role) => PAGES_OF[role].includes(first)) ?? null;
};

/**
 * An address the operator's role has no page at: another role's page (a link a colleague sent) is said so, with the
 * way to the operator's own first page; any other address goes there at once.
 */
function NotYourPage({ role }: { role: OperatorRole }) {
  const [location] = useLocation();
  const owner = ownerOf(location);
  if (!owner || owner === role) return <Redirect to={HOME[role]} replace />;
  return (
    <section className="console-not-yours">
      <p role="alert">
        <Trans>
          This page is for operators with the <RoleName role={owner} /> role; you are signed in with the{' '}
          <RoleName role={role} /> role.
        </Trans>
      </p>
      <Link href={HOME[role]}>
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
        <span className="console-who">
          {name} · <RoleName role={role} />
        </span>
        <LanguageSwitch />
        <SignOutButton />
      </header>
      <Nav role={role} />
      <main className="console-main">
        <Switch>
          {role === 'reviewer' && (
            <>
              <Route path="/queues" component={QueuesPage} />
              <Route path="/recharge/:id">{(params) => <RechargePage key={params.id} id={params.id} />}</Route>
              <Route path="/withdrawal/:id">{(params) => <WithdrawalPage key={params.id} id={params.id} />}</Route>
              <Route path="/certification/:id">
                {(params) => <CertificationPage key={params.id} id={params.id} />}
              </Route>
              <Route path="/customers" component={CustomersPage} />
              <Route path="/customer/:id">{(params) => <CustomerPage key={params.id} id={params.id} />}</Route>
              <Route path="/inbox/canned" component={CannedRepliesPage} />
              <Route path="/inbox/:id?">{(params) => <InboxPage id={params.id} />}</Route>
            </>
          )}
          {role === 'content' && (
            <>
              <Route path="/content" component={ContentPage} />
              <Route path="/rewards" component={RewardsPage} />
            </>
          )}
          {role === 'admin' && (
            <>
              <Route path="/operators" component={OperatorsPage} />
              <Route path="/products" component={ProductsPage} />
              <Route path="/house" component={HousePage} />
              <Route path="/audit" component={AuditPage} />
              <Route path="/system" component={SystemPage} />
            </>
          )}
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
    <Link href={path} className={[path, ...also].some((prefix) => location.startsWith(prefix)) ? 'active' : ''}>
      {label}
    </Link>
  );
  return (
    <nav className="console-nav" aria-label="Console">
      {role === 'reviewer' && (
        <>
          {item('/queues', <Trans>Review queues</Trans>, ['/recharge/', '/withdrawal/', '/certification/'])}
          {item('/customers', <Trans>Customers</Trans>, ['/customer/'])}
          {item('/inbox', <InboxNavLabel />)}
        </>
      )}
      {role === 'content' && (
        <>
          {item('/content', <Trans>Content</Trans>)}
          {item('/rewards', <Trans>Rewards</Trans>)}
        </>
      )}
      {role === 'admin' && (
        <>
          {item('/operators', <Trans>Operators</Trans>)}
          {item('/products', <Trans>Products</Trans>)}
          {item('/house', <Trans>House</Trans>)}
          {item('/audit', <Trans>Audit log</Trans>)}
          {item('/system', <Trans>System</Trans>)}
        </>
      )}
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
