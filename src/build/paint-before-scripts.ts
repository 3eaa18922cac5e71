import type { Plugin } from 'vite';
import { START_FAILED } from '../lib/first-screen-pick.ts';
import { inlineScript } from './inline-scripts.ts';

/**
 * The first screen paints before any of the app's code is even asked for. index.html carries a small
 * inline boot script instead of the entry and its preloads: once the first paint has happened (or at once in
 * a tab that is not shown), it preloads the start chunks and runs the entry. Without it the start chunk (300 KB
 * of JavaScript) is run as soon as it has arrived, which on a fast link or from the service worker's cache is
 * before the first paint: the screen stays blank for as long as it takes to run it (100–200 ms on a slow
 * phone); and a download that starts before the paint shares the slow link with the document the paint needs.
 * The wait costs the app at most a frame; PAINT_WAIT_MS bounds it where the paint is never reported.
 * Where the first screen leads with a picture (Home's first slide, fetched with high priority), the code waits for that
 * picture's paint too: it is the page's largest paint, and a download started before it would share the link with it;
 * PICTURE_WAIT_MS bounds that wait from the first paint on, so a slow picture holds the app back that long at most.
 */
export function paintBeforeScripts(): Plugin {
  // One bound for both waits, 300 ms from the boot script, let a busy device start the code before its first paint:
  // a phone context in headless Chromium on a machine running the whole test suite painted later than that
  // (2026-12-02: the entry asked for at 966 ms, the paint after it). The first paint is a frame away on any device
  // that is not stalled; 1 s is the bound for one that never reports it.
  const PAINT_WAIT_MS = 1000;
  const PICTURE_WAIT_MS = 300;
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
        const preload = /\s*<link rel="modulepreload" crossorigin href="([^"]+)">/g;
        const preloads = [...page.matchAll(preload)].map((match) => match[1]!);
        const boot = [
          '(()=>{let started=false;const start=()=>{if(started)return;started=true;',
          `for(const href of ${JSON.stringify(preloads)}){const link=document.createElement('link');link.rel='modulepreload';link.crossOrigin='';link.href=href;document.head.append(link)}`,
          // Failed to arrive or to run: marked and told, for the picking script (first-screen-boot.ts) to answer.
          `import(${JSON.stringify(entry[1])}).catch(()=>{document.documentElement.setAttribute(${JSON.stringify(`data-${START_FAILED}`)},'');document.dispatchEvent(new Event(${JSON.stringify(START_FAILED)}))})};`,
          `if(document.visibilityState==='hidden'||!globalThis.PerformanceObserver?.supportedEntryTypes?.includes('paint'))start();`,
          // After the first paint, and the leading picture's (decoded, then the frame that shows it), if there is one.
          `else{const painted=()=>{const picture=document.querySelector('#root img[fetchpriority="high"]');if(!picture?.decode)return start();setTimeout(start,${PICTURE_WAIT_MS});picture.decode().then(()=>requestAnimationFrame(()=>setTimeout(start)),start)};`,
          `new PerformanceObserver((list,observer)=>{if(list.getEntriesByName('first-contentful-paint').length){observer.disconnect();painted()}}).observe({type:'paint',buffered:true});setTimeout(start,${PAINT_WAIT_MS})}})()`,
        ].join('');
        html.source = page.replace(preload, '').replace(
          entry[0],
          inlineScript(bundle, (file) => this.emitFile(file), boot),
        );
      },
    },
  };
}
