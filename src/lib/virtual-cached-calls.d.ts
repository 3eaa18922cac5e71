// Made by the build (src/build/cached-calls.ts) from each endpoint's `cache` in src/api-contract: see
// src/lib/cached-calls.ts.
declare module 'virtual:cached-calls' {
  /** API paths of the public GETs the service worker keeps in the shared cache. */
  export const PUBLIC_PATHS: readonly string[];
  /** A user's reads the service worker keeps in that user's partition. */
  export const USER_CALLS: readonly { readonly method: 'GET' | 'POST'; readonly path: string }[];
}
