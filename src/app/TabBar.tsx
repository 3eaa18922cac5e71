import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { useLingui } from '@lingui/react';
import { ROUTES } from '../contract/routes.ts';
import { badgeText, unread } from '../lib/messages.ts';
import { VISIBLE_TABS } from './routes.ts';

/** The tab that leads to the messages (home's bell) carries the unread count. */
const MESSAGES_TAB = ROUTES.home;

export function TabBar({ current }: { current: string }) {
  const { i18n } = useLingui();
  const { count } = useSnapshot(unread);
  return (
    <nav className="tabbar">
      {VISIBLE_TABS.map(({ path, label, Icon }) => (
        <Link key={path} href={path} replace aria-current={path === current ? 'page' : undefined}>
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
