// The operator command's entry point (`npm run ops -- <command>`): the resolve hook for installed packages first
// (../package-resolution.ts), then the command (command-line.ts).
import { registerPackageResolveHook } from '../package-resolution.ts';

registerPackageResolveHook();
await import('./command-line.ts');
