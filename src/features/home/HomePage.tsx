// Home (tab): slides, the scrolling notice and the user's shortcuts. More areas join as they ship.
import { useEffect } from 'react';
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans } from '@lingui/react/macro';
import { ROUTES } from '../../contract/routes.ts';
import { errorText } from '../../lib/api.ts';
import { session } from '../../lib/session.ts';
import { toast } from '../../lib/toast.ts';
import { NavBar } from '../../ui/NavBar.tsx';
import { Carousel } from '../../ui/Carousel.tsx';
import { BellIcon, MineIcon, SettingsIcon } from '../../ui/icons.tsx';
import { home, loadHome } from './home-store.ts';

export default function HomePage() {
  const { slides, notice } = useSnapshot(home);
  const { user } = useSnapshot(session);

  useEffect(() => {
    loadHome().catch((error) => toast(errorText(error)));
  }, []);

  return (
    <div className="page">
      <NavBar back={false} title="Coinvest" />
      <div className="page-body">
        {slides.length > 0 && <Carousel items={slides} />}
        {notice && (
          <div className="notice" role="marquee">
            <BellIcon />
            <div className="notice-track">
              <span>{notice}</span>
            </div>
          </div>
        )}
        <section className="card greeting">
          <h2>{user ? <Trans>Hello, {user.nickname || user.username}</Trans> : <Trans>Hello</Trans>}</h2>
          <p className="muted">
            <Trans>Markets, options and mining open here as they become available in your app.</Trans>
          </p>
        </section>
        <nav className="shortcuts">
          <Link href={ROUTES.mine}>
            <MineIcon />
            <span>
              <Trans>Mine</Trans>
            </span>
          </Link>
          <Link href={ROUTES.settings}>
            <SettingsIcon />
            <span>
              <Trans>Settings</Trans>
            </span>
          </Link>
        </nav>
      </div>
    </div>
  );
}
