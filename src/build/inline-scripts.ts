import { createHash } from 'node:crypto';
import type { Rollup } from 'vite';
import { INLINE_SCRIPTS_FILE } from '../server/build-info.ts';

/**
 * A classic script to write inside index.html, and its SHA-256 added to <outDir>/inline-scripts.json: the
 * server's content security policy allows the inline scripts listed there and no other
 * (src/server/build-info.ts inlineScriptSources).
 */
export function inlineScript(
  bundle: Rollup.OutputBundle,
  emitFile: (file: Rollup.EmittedAsset) => string,
  code: string,
): string {
  const text = code.replaceAll('</script', '<\\/script');
  const source = `sha256-${createHash('sha256').update(text).digest('base64')}`;
  const listed = bundle[INLINE_SCRIPTS_FILE];
  if (listed?.type === 'asset')
    listed.source = JSON.stringify([...(JSON.parse(String(listed.source)) as string[]), source]);
  else emitFile({ type: 'asset', fileName: INLINE_SCRIPTS_FILE, source: JSON.stringify([source]) });
  return `<script>${text}</script>`;
}
