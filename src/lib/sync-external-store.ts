// What wouter imports as `use-sync-external-store/shim` (vite.config.ts, resolve.alias): the shim
// backfills the hook for React before 18 and re-exports React's own from 18 on. With React 19 its
// backfill is dead code in every route's start (0.7 KB); this is React's hook, as the shim would give.
export { useSyncExternalStore } from 'react';
