// What the first screens' render (first-screen-render.ts) uses of jsdom, which ships no types of its own.
declare module 'jsdom' {
  export class JSDOM {
    constructor(html: string, options?: { url?: string; pretendToBeVisual?: boolean });
    readonly window: Window & typeof globalThis;
  }
}
