import type { Plugin } from 'vite';

/**
 * The static shell paints before the app's code runs. index.html starts a tiny boot script instead
 * of the entry: the entry and the start chunk still download at once (modulepreload, which also
 * parses them), and the boot script runs the entry once the first paint has happened, or at once in
 * a tab that is not shown. Without it the start chunk (300 KB of JavaScript) is run as soon as it
 * has arrived, which on a fast link or from the service worker's cache is before the first paint:
 * the screen stays blank for as long as it takes to run it (100–200 ms on a slow phone). The wait
 * costs the app at most a frame; PAINT_WAIT_MS bounds it where the paint is never reported.
 * The boot script and the preloads are asked at low priority: the paint needs none of them (a high
 * priority script that arrives before the first paint counts as blocking it in Lighthouse's
 * simulation, which cannot see that a module ran only after the paint).
 */
export function paintBeforeScripts(): Plugin {
  const PAINT_WAIT_MS = 300;
  return {
    name: 'coinvest:paint-before-scripts',
    apply: 'build',
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const html = bundle['index.html'];
        if (html?.type !== 'asset') return;
        const page = String(html.source);
        const entry = /<script type="module" crossorigin src="(\/assets\/index-[\w-]+\.js)"><\/script>/.exec(page);
        if (!entry) throw new Error('paint-before-scripts: the entry script is not in index.html');
        const boot = [
          `let started=false;const start=()=>{if(started)return;started=true;import(${JSON.stringify(entry[1])})};`,
          `if(document.visibilityState==='hidden'||!globalThis.PerformanceObserver?.supportedEntryTypes?.includes('paint'))start();`,
          `else{new PerformanceObserver((list,observer)=>{if(list.getEntriesByName('first-contentful-paint').length){observer.disconnect();start()}}).observe({type:'paint',buffered:true});setTimeout(start,${PAINT_WAIT_MS})}`,
          '',
        ].join('\n');
        const fileName = this.getFileName(this.emitFile({ type: 'asset', name: 'boot.js', source: boot }));
        // Low priority: none of these scripts is needed for the first paint, and the browser is told so.
        html.source = page
          .replace(
            entry[0],
            `<script type="module" fetchpriority="low" crossorigin src="/${fileName}"></script>\n    <link rel="modulepreload" crossorigin href="${entry[1]}">`,
          )
          .replaceAll(
            '<link rel="modulepreload" crossorigin',
            '<link rel="modulepreload" fetchpriority="low" crossorigin',
          );
      },
    },
  };
}
