/** Names this build (vite.config.ts: BUILD_ID, else the build time); shown on Mine and on <html data-build>. */
declare const __BUILD_ID__: string;
/** The built address of the worker that loads Intl's locale data (src/lib/intl-warm.ts), for the picking script. */
declare const __INTL_WARM_URL__: string;
