// The server's entry point (`npm start`, `npm run server`, and each worker that WORKERS=N forks): the resolve hook for
// installed packages first (package-resolution.ts: about 1.1 s of a core less a start, measured), then the server
// (start.ts).
import { registerPackageResolveHook } from './package-resolution.ts';

registerPackageResolveHook();
await import('./start.ts');
