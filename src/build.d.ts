/** Names this build (vite.config.ts: BUILD_ID, else the build time); shown on Mine and on <html data-build>. */
declare const __BUILD_ID__: string;
