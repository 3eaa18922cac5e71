// Proof of liabilities (api-contract/liabilities.ts): the public roots and the caller's own proof; the rules live in
// domain/liabilities.ts.
import { liabilityRoots, myLiabilityProof } from '../../api-contract/liabilities.ts';
import { liabilityProofOf, publishedRoots } from '../domain/liabilities.ts';
import type { RouteModule } from './route-module.ts';

export const liabilitiesRoutes: RouteModule = ({ route }) => {
  route(liabilityRoots, async (_input, { db }) => ({ lists: await publishedRoots(db) }));

  route(myLiabilityProof, (_input, { db, caller }) => liabilityProofOf(db, caller.userId));
};
