// Lie-fi: a page showing a cached answer is loaded again when the network's late answer has arrived,
// so the fresh one replaces it — unless the customer has acted on the page since it was shown (typed, tapped or
// pressed a key): loading it again would lose what they were doing (a confirmation they opened, a choice they made, a
// form half filled). Such a page keeps its cached answer, marked with when it was stored, until it is shown again.
import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { offlineData } from '../lib/offline.ts';

/** What counts as the customer acting on the page: a key, a touch or click (as it begins), a change typed. */
const ACTIONS = ['input', 'keydown', 'pointerdown'] as const;

/**
 * A number to key the page at `path` with: it changes (0, 1, 2…) when the network's late answer to a read shown from
 * the cache has arrived (offlineData.refreshes) and nobody has acted on the page since it was shown.
 */
export function usePageGeneration(path: string): number {
  const { refreshes } = useSnapshot(offlineData);
  const seen = useRef(refreshes);
  const acted = useRef(false);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    acted.current = false;
    const act = () => void (acted.current = true);
    for (const type of ACTIONS) document.addEventListener(type, act, true);
    return () => {
      for (const type of ACTIONS) document.removeEventListener(type, act, true);
    };
  }, [path, generation]);

  useEffect(() => {
    if (refreshes === seen.current) return;
    seen.current = refreshes;
    if (!acted.current) setGeneration((value) => value + 1);
  }, [refreshes]);

  return generation;
}
