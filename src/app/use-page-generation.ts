// Lie-fi: a page showing a cached answer is loaded again when the network's late answer has arrived,
// so the fresh one replaces it — unless the user has typed into the page (a reload would lose it).
import { useEffect, useRef, useState } from 'react';
import { useSnapshot } from 'valtio';
import { offlineData } from '../lib/offline.ts';

/** A number to key the page with: it changes when the page should load again. */
export function usePageGeneration(path: string): number {
  const { refreshes } = useSnapshot(offlineData);
  const seen = useRef(refreshes);
  const edited = useRef(false);
  const [generation, setGeneration] = useState(0);

  useEffect(() => {
    edited.current = false;
    const typed = () => void (edited.current = true);
    document.addEventListener('input', typed, true);
    return () => document.removeEventListener('input', typed, true);
  }, [path, generation]);

  useEffect(() => {
    if (refreshes === seen.current) return;
    seen.current = refreshes;
    if (!edited.current) setGeneration((value) => value + 1);
  }, [refreshes]);

  return generation;
}
