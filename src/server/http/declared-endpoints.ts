// Every endpoint declared in src/api-contract, found by reading the folder: a module or an endpoint
// added there later is in the list (the OpenAPI document, the fuzz test) without a line added here.
import { readdirSync } from 'node:fs';
import { endpointsIn, type DeclaredEndpoint } from '../../api-contract/registry.ts';

const contractFolder = new URL('../../api-contract/', import.meta.url);

let loading: Promise<DeclaredEndpoint[]> | null = null;

export function declaredEndpoints(): Promise<DeclaredEndpoint[]> {
  loading ??= (async () => {
    const files = readdirSync(contractFolder).filter((file) => /\.tsx?$/.test(file) && !file.endsWith('.d.ts'));
    const modules = await Promise.all(
      files.map(
        async (file) =>
          [
            file.replace(/\.tsx?$/, ''),
            (await import(new URL(file, contractFolder).href)) as Record<string, unknown>,
          ] as const,
      ),
    );
    return endpointsIn(Object.fromEntries(modules));
  })();
  return loading;
}
