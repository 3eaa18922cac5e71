import { Link } from 'wouter';
import { useLingui } from '@lingui/react';
import { VISIBLE_TABS } from './routes.ts';

export function TabBar({ current }: { current: string }) {
  const { i18n } = useLingui();
  return (
    <nav className="tabbar">
      {VISIBLE_TABS.map(({ path, label, Icon }) => (
        <Link key={path} href={path} replace aria-current={path === current ? 'page' : undefined}>
          <Icon />
          <span>{i18n._(label)}</span>
        </Link>
      ))}
    </nav>
  );
}
