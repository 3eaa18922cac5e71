// The open orders of the pair on the trade screen, oldest first, each with Revoke; the full list
// (history included) is one tap away.
import { Link } from 'wouter';
import { useSnapshot } from 'valtio';
import { Trans } from '@lingui/react/macro';
import { ROUTES } from '../../api-contract/routes.ts';
import { session } from '../../lib/session.ts';
import { Empty } from '../../ui/lists.tsx';
import { contractsState } from './contracts-store.ts';
import { OrderRow } from './ContractParts.tsx';

export function OpenOrders({ code }: { code: string }) {
  const { open, openCode, openLoaded } = useSnapshot(contractsState);
  const { token } = useSnapshot(session);
  const shown = openCode === code ? open : [];
  return (
    <section className="ct-open" aria-labelledby="ct-open-title">
      <header className="ct-open-head">
        <h2 id="ct-open-title">
          <Trans>Open orders</Trans> {shown.length > 0 && <span className="opt-count">{shown.length}</span>}
        </h2>
        <Link href={`${ROUTES.contractOrders}?code=${code}`} className="link-button">
          <Trans>All orders</Trans>
        </Link>
      </header>
      {token && openLoaded && shown.length === 0 && (
        <Empty>
          <Trans>No open orders</Trans>
        </Empty>
      )}
      {shown.length > 0 && (
        <ul className="card flush record-list">
          {shown.map((order) => (
            <OrderRow key={order.id} order={order} />
          ))}
        </ul>
      )}
    </section>
  );
}
