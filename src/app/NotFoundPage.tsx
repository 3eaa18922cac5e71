import { Link } from 'wouter';
import { Trans } from '@lingui/react/macro';
import { ROUTES } from '../api-contract/routes.ts';
import { NavBar } from '../ui/NavBar.tsx';
import { Empty } from '../ui/lists.tsx';

export default function NotFoundPage() {
  return (
    <div className="page">
      <NavBar title={<Trans>Page not found</Trans>} />
      <Empty
        action={
          <Link href={ROUTES.home} className="btn small">
            <Trans>Back to home</Trans>
          </Link>
        }
      >
        <Trans>This page does not exist or is not available yet.</Trans>
      </Empty>
    </div>
  );
}
