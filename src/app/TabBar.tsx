import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { useLingui } from '@lingui/react';
import { ROUTES } from '../api-contract/routes.ts';
import { badgeText, unread } from '../lib/messages.ts';
import { PAGES, VISIBLE_TABS } from './routes.ts';

/**
 * A tab's page starts loading as the finger comes down, not when the tap ends: from the service
 * worker's cache its code and texts are in before the route changes, and the page shows at once
 * instead of a loading screen that React then holds for 300 ms. A failure shows when the page opens.
 */
const preload = (path: string) => void PAGES[path]?.load().catch(() => undefined);

/** The tab that leads to the messages (home's bell) carries the unread count. */
const MESSAGES_TAB = ROUTES.home;

export function TabBar({ current }: { current: string }) {
  const { i18n } = useLingui();
  const { count } = useSnapshot(unread);
  return (
    <nav className="tabbar">
      {VISIBLE_TABS.map(({ path, label, Icon }) => (
        <Link
          key={path}
          href={path}
          replace
          aria-current={path === current ? 'page' : undefined}
          onPointerDown={() => preload(path)}
        >
          <span className="tab-icon">
            <Icon />
            {path === MESSAGES_TAB && count > 0 && <span className="count-badge">{badgeText(count)}</span>}
          </span>
          <span>{i18n._(label)}</span>
        </Link>
      ))}
    </nav>
  );
}
