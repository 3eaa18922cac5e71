// The shell: router on the hash, the auth guard, the page, the tab bar, loading mask, toasts and
// the update dialog.
import { Component, Suspense, lazy, useEffect, useRef, useState, type ComponentType, type ReactNode } from 'react';
import { Router, useLocation } from 'wouter';
import { useSnapshot } from 'valtio';
import { i18n } from '@lingui/core';
import { I18nProvider } from '@lingui/react';
import { loginRoute } from '../api-contract/routes.ts';
import { texts } from '../api-contract/texts.ts';
import { heldWrites, session } from '../lib/session.ts';
import { appLock } from '../lib/app-lock.ts';
import { currentRoute, navigate, recordVisit, useHashPath, useHashQuery } from '../lib/navigation.ts';
import { PAGES, isTabPage, needsLogin, resolvePath, type Page } from './routes.ts';
import { TabBar } from './TabBar.tsx';
import { LoadingMask, ToastHost } from './Overlays.tsx';
import { StartupMessage } from './StartupMessage.tsx';
import { LoadFailed } from './LoadFailed.tsx';
import { appUpdate, updateDialogOpen } from '../lib/update-state.ts';
import { lostAnswers } from '../lib/lost-answers-state.ts';
import { loadAreaMessages } from '../lib/i18n.ts';
import { usePageGeneration } from './use-page-generation.ts';
import { loadKeyboardFocus } from '../ui/keyboard-focus-load.ts';

export function App() {
  return (
    <I18nProvider i18n={i18n}>
      <Router hook={useHashPath} searchHook={useHashQuery} hrefs={(href) => `#${href}`}>
        <Shell />
      </Router>
    </I18nProvider>
  );
}

function Shell() {
  const [rawPath] = useLocation();
  const path = resolvePath(rawPath);
  const { token } = useSnapshot(session);
  const { locked } = useSnapshot(appLock);
  const blocked = needsLogin(path) && !token;

  useEffect(() => {
    if (blocked) navigate(loginRoute(currentRoute()), { replace: true });
    else recordVisit(currentRoute());
  }, [blocked, path]);
  // A new page starts at its top, not at the scroll position of the page before.
  useEffect(() => {
    scrollTo(0, 0);
  }, [path]);
  // ...and a keyboard or screen-reader user starts there too: at its heading (not on the first page, the browser's).
  // The focus module (ui/keyboard-focus.ts) loads at the first navigation, key press or focus (a radio reached by a
  // click answers the arrow keys next), or as a dialog opens: after the first screen, whose bytes are counted.
  const firstPath = useRef(path);
  useEffect(() => {
    if (path === firstPath.current) return;
    firstPath.current = '';
    void loadKeyboardFocus().then((module) => module?.pageShown());
  }, [path]);

  const generation = usePageGeneration(path);

  const Page = PAGES[path];
  const withTabs = isTabPage(path);
  // Locked, the lock screen is drawn instead of the pages: nothing of the account is in the document behind it.
  if (token && locked) {
    return (
      <div className="app">
        <Suspense fallback={null}>
          <LockScreen />
        </Suspense>
        <LoadingMask />
        <ToastHost />
      </div>
    );
  }
  return (
    <div className="app" onKeyDownCapture={loadKeyboardFocus} onFocusCapture={loadKeyboardFocus}>
      <main className={withTabs ? 'app-main with-tabs' : 'app-main'}>
        {!blocked && (
          <PageBoundary key={`${path}#${generation}`}>
            <Suspense fallback={<PageLoading />}>{Page ? <PageView page={Page} /> : <NotFoundPage />}</Suspense>
          </PageBoundary>
        )}
      </main>
      {withTabs && <TabBar current={path} />}
      {token && <StartupMessage key={token} token={token} />}
      {token && <LostAnswerGate />}
      <UpdateGate />
      <LoadingMask />
      <ToastHost />
    </div>
  );
}

const UpdateDialog = lazy(() => import('./UpdateDialog.tsx'));
const NotFoundPage = lazy(() => import('./NotFoundPage.tsx'));
const LockScreen = lazy(() => import('./LockScreen.tsx'));
/** With its texts: the dialog is an area of its own (src/features/lost-answers), so the start chunk carries none. */
const LostAnswerDialog = lazy(() =>
  Promise.all([import('../features/lost-answers/LostAnswerDialog.tsx'), loadAreaMessages('lost-answers')]).then(
    ([module]) => module,
  ),
);

/**
 * What became of writes whose answer was lost, while there is something to tell (features/lost-answers): to the
 * customer they are held for only, not on the login page after the server ended the session (lib/session.ts).
 */
function LostAnswerGate() {
  const { told } = useSnapshot(lostAnswers);
  const { userId: heldFor } = useSnapshot(heldWrites);
  return told.length && heldFor === null ? (
    <Suspense fallback={null}>
      <LostAnswerDialog />
    </Suspense>
  ) : null;
}

/** The update dialog's code arrives when it opens. */
function UpdateGate() {
  const open = updateDialogOpen(useSnapshot(appUpdate));
  return open ? (
    <Suspense fallback={null}>
      <UpdateDialog />
    </Suspense>
  ) : null;
}

/**
 * The page itself when its code and texts are already in (the first page, prepared at start), else
 * the lazy page that waits for them. Chosen once per page shown: a later re-render keeps it.
 */
function PageView({ page }: { page: Page }) {
  const [Shown] = useState<ComponentType>(() => page.loaded() ?? page);
  return <Shown />;
}

/** While a page's code arrives (first visit on a slow network). */
function PageLoading() {
  return (
    <div className="page-loading" role="status" aria-label={i18n._(texts.loading)}>
      <div className="spinner" />
    </div>
  );
}

/**
 * A page chunk that fails to load shows the load-failed text and a way to try again, not a blank screen. One that
 * failed offline loads again by itself when the browser is back online, in place: the app is not reloaded, so what
 * the customer typed elsewhere (kept in the stores) stays.
 */
class PageBoundary extends Component<{ children: ReactNode }, { failed: boolean }> {
  state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  private readonly retry = () => this.state.failed && this.setState({ failed: false });
  componentDidMount() {
    addEventListener('online', this.retry);
  }
  componentWillUnmount() {
    removeEventListener('online', this.retry);
  }
  render() {
    if (!this.state.failed) return this.props.children;
    return <LoadFailed onRetry={() => location.reload()} />;
  }
}
