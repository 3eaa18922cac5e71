// "Verify my balance": the caller's proof of liabilities and the public list of roots, fetched (and kept by the
// service worker for offline reading), then checked here on the device with the stand-alone verifier against the root
// the public list shows, never against the proof's own root.
import { proxy } from 'valtio/vanilla';
import { subscribeKey } from 'valtio/vanilla/utils';
import { liabilityRoots, myLiabilityProof, type PublishedTree } from '../../api-contract/liabilities.ts';
import { verifyProof, type LiabilityProof, type Verdict } from '../../api-contract/liabilities-verify.ts';
import { api, errorText, refusedByServer } from '../../lib/api.ts';
import { saveFile } from '../../lib/download.ts';
import { session } from '../../lib/session.ts';

export const liabilitiesState = proxy({
  /** The caller's proof and the tree it is of, as the server answered them. */
  proof: null as LiabilityProof | null,
  /** The tree as the public list publishes it (what the proof is checked against); null when it is not listed. */
  published: null as PublishedTree | null,
  /** The newest tree of the public list: the one the proof must be of. */
  newest: null as PublishedTree | null,
  /** The device's own check: null while it runs. */
  verdict: null as Verdict | null,
  loaded: false,
  /** The last load failed: what it said (a refusal: no tree holds the caller yet). */
  failure: null as string | null,
  /**
   * The failure is the server's answer (no published proof holds the caller yet: the account is newer than the last
   * daily cut-off at 00:00 UTC), which asking again cannot change before the next proof; not a lost connection.
   */
  refused: false,
});

let latest = 0;

/** Fetches the proof and the public roots, then verifies the proof on the device. */
export async function loadProof(): Promise<void> {
  const request = ++latest;
  try {
    const [first, roots] = await Promise.all([
      api(myLiabilityProof, undefined, { loading: !liabilitiesState.loaded }),
      api(liabilityRoots, undefined, { loading: false }),
    ]);
    // The server answers the proof in the newest tree. One of an older tree may come from a tree published between
    // the two answers: asked for again once. Still older, it is not verified: a platform could show a customer their
    // leaf in an old tree while leaving them out of the newest one.
    const newest = roots.lists[0];
    const mine =
      newest && first.proof.tree < newest.id ? await api(myLiabilityProof, undefined, { loading: false }) : first;
    if (request !== latest) return;
    const published = roots.lists.find((tree) => tree.id === mine.proof.tree) ?? null;
    Object.assign(liabilitiesState, {
      proof: mine.proof,
      published,
      newest: newest ?? null,
      verdict: null,
      loaded: true,
      failure: null,
      refused: false,
    });
    // The proof must be of this customer's own account (when the device knows it): another customer's leaf with the
    // same balances would pass every other check.
    const account = session.user ? String(session.user.id) : undefined;
    const verdict: Verdict = !published
      ? { ok: false, reason: 'root', detail: 'the tree is not in the published list' }
      : published !== newest
        ? { ok: false, reason: 'older', detail: `tree ${published.id} is older than the newest, ${newest!.id}` }
        : await verifyProof(
            mine.proof,
            {
              hash: published.root,
              assets: published.assets,
              totals: published.totals,
              decimals: published.decimals,
              cutoff: published.cutoff,
            },
            account,
          );
    if (request === latest) liabilitiesState.verdict = verdict;
  } catch (error) {
    if (request !== latest) return;
    Object.assign(liabilitiesState, { failure: errorText(error), refused: refusedByServer(error) });
    throw error;
  }
}

// Another session (logout, another user) must never see this proof.
subscribeKey(session, 'token', () => {
  latest += 1;
  Object.assign(liabilitiesState, {
    proof: null,
    published: null,
    newest: null,
    verdict: null,
    loaded: false,
    failure: null,
    refused: false,
  });
});

/** Saves the proof as `liabilities-proof-<tree>.json`, indented JSON (what the stand-alone verifier reads). */
export function downloadProof(proof: LiabilityProof): void {
  saveFile(
    `liabilities-proof-${proof.tree}.json`,
    new Blob([JSON.stringify(proof, null, 2)], { type: 'application/json' }),
  );
}
