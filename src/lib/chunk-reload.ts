// A page left open across a deploy asks for a route chunk the new build no longer has. Reloading
// once brings the new version (its chunks exist); a second failure soon after is a real failure
// (offline, a broken deploy) and shows the load-failed text with Retry instead of reloading in a loop.
const RELOADED_AT = 'coinvest.chunk-reload';
/** A reload this recent already tried: don't try again. */
const ONCE_WITHIN_MS = 60_000;

export interface ReloadPlace {
  storage: Pick<Storage, 'getItem' | 'setItem'> | null;
  online: boolean;
  now: number;
  reload(): void;
}

/** Reloads into the new build when that may help and was not just tried; says whether it did. */
export function reloadForMissingChunk(place: ReloadPlace): boolean {
  // Offline the new build cannot arrive either: the page shows the load-failed text with Retry.
  if (!place.online || !place.storage) return false;
  const last = Number(place.storage.getItem(RELOADED_AT) ?? 0);
  if (place.now - last < ONCE_WITHIN_MS) return false;
  place.storage.setItem(RELOADED_AT, String(place.now));
  place.reload();
  return true;
}

/** The browser's own place for it. */
export function browserReloadPlace(): ReloadPlace {
  let storage: Storage | null = null;
  try {
    storage = sessionStorage;
  } catch {
    // Storage blocked: never reload, so never loop.
  }
  return { storage, online: navigator.onLine !== false, now: Date.now(), reload: () => location.reload() };
}
