// Proof of liabilities (api-contract/liabilities.ts): the public roots and the caller's own proof; the rules live in
// domain/liabilities.ts. The stand-alone verifier is served too (GET /.well-known/liabilities-verify.mjs): the very
// source the app verifies with, api-contract/liabilities-verify.ts, its types stripped by Node's own stripper, so a
// customer runs the one piece of code there is without the repository.
import { readFile } from 'node:fs/promises';
import { stripTypeScriptTypes } from 'node:module';
import { LIABILITIES_VERIFIER_PATH, liabilityRoots, myLiabilityProof } from '../../api-contract/liabilities.ts';
import { liabilityProofOf, publishedRoots } from '../domain/liabilities.ts';
import type { RouteModule } from './route-module.ts';

const VERIFIER_SOURCE = new URL('../../api-contract/liabilities-verify.ts', import.meta.url);

let verifier: Promise<string> | undefined;

/**
 * The verifier as JavaScript, made once per process on the first request (the stripper, experimental in Node.js 24,
 * warns once when first used): whitespace where the types were, so its lines are the source's, under a first line
 * saying where it comes from and how to run it.
 */
function verifierScript(): Promise<string> {
  verifier ??= readFile(VERIFIER_SOURCE, 'utf8').then(
    (source) =>
      `// Served at ${LIABILITIES_VERIFIER_PATH}: src/api-contract/liabilities-verify.ts with its types stripped. ` +
      'Run: node liabilities-verify.mjs proof.json <published root hash, or roots.json saved from /api/liabilities/roots>\n' +
      stripTypeScriptTypes(source, { mode: 'strip' }),
  );
  verifier.catch(() => (verifier = undefined));
  return verifier;
}

export const liabilitiesRoutes: RouteModule = ({ app, route }) => {
  route(liabilityRoots, async (_input, { db }) => ({ lists: await publishedRoots(db) }));

  route(myLiabilityProof, (_input, { db, caller }) => liabilityProofOf(db, caller.userId));

  // Changes only with a deploy: kept five minutes, as the receipt keys are.
  app.get(LIABILITIES_VERIFIER_PATH, async (_request, reply) =>
    reply
      .header('content-type', 'text/javascript; charset=utf-8')
      .header('cache-control', 'public, max-age=300')
      .header('access-control-allow-origin', '*')
      .send(await verifierScript()),
  );
};
