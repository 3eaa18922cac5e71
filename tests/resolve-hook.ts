// Every test worker's first setup file: the server's resolve hook for installed packages' own relative imports
// (src/server/package-resolution.ts), as the server's entry point registers it. A worker that loads the server's
// modules (drizzle-orm, date-fns) then resolves them without Node re-reading their large package.json files a module at
// a time: importing the server's schema in a unit file took 1.32 s of a core without it and 0.16 s with it, measured.
// Registered once a process (a worker that runs file after file keeps it).
import { registerPackageResolveHook } from '../src/server/package-resolution.ts';

registerPackageResolveHook();
