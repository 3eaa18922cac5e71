// Signed settlement receipts (api-contract/receipts.ts) and the public keys that verify them: GET
// /.well-known/receipt-keys.json is a plain JSON document (no envelope, no session, any origin may read it, caches may
// keep it five minutes), the same list the app asks for through the API. The rules live in domain/receipts.ts.
import { RECEIPT_KEYS_PATH, contractReceipt, optionReceipt, receiptKeys } from '../../api-contract/receipts.ts';
import { contractReceiptOf, optionReceiptOf, publishedReceiptKeys } from '../domain/receipts.ts';
import type { RouteModule } from './route-module.ts';

/** An id as the input carries it; anything else is looked for as 0 and not found. */
const orderId = (id: string) => (/^\d{1,9}$/.test(id) ? Number(id) : 0);

export const receiptsRoutes: RouteModule = ({ app, route, services }) => {
  route(optionReceipt, (input, { db, caller, clock, receiptKeys: keys }) =>
    optionReceiptOf(db, keys, caller.userId, orderId(input.id), clock.now()),
  );
  route(contractReceipt, (input, { db, caller, clock, receiptKeys: keys }) =>
    contractReceiptOf(db, keys, caller.userId, orderId(input.id), clock.now()),
  );
  route(receiptKeys, async () => publishedReceiptKeys(services.receiptKeys));
  // Keys change only with a restart; five minutes keeps a new key's first receipts verifiable soon after it starts.
  app.get(RECEIPT_KEYS_PATH, async (_request, reply) =>
    reply
      .header('cache-control', 'public, max-age=300')
      .header('access-control-allow-origin', '*')
      .send(publishedReceiptKeys(services.receiptKeys)),
  );
};
