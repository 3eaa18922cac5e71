import { readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { contractTextKeys, isStatusKey, sourceFacts } from './source.ts';

/**
 * Whether a text belongs in the console's catalog part: one of its own (a message of src/console, or of
 * api-contract/console-texts.ts, the answers of its calls), or an API contract text that its code or its contract
 * names (`texts.key`, read from the sources' syntax trees; httpStatusText brings the status texts). The app
 * never loads this part.
 */
export function consoleText(origins: Record<string, { origin?: [string, number?][] } | undefined>, root: string) {
  const facts = [
    join(root, 'src/api-contract/console.ts'),
    ...(readdirSync(join(root, 'src/console'), { recursive: true }) as string[]).map((file) =>
      join(root, 'src/console', file),
    ),
  ]
    .filter((file) => file.endsWith('.ts') || file.endsWith('.tsx'))
    .map((file) => sourceFacts(file));
  const named = new Set(facts.flatMap((file) => [...file.textsRead]));
  if (facts.some((file) => file.callsHttpStatusText))
    ['tooManyRequests', 'unknownError', 'http500'].forEach((key) => named.add(key));
  const contractIds = new Set(
    [...contractTextKeys(join(root, 'src/api-contract/texts.ts'))]
      .filter(([, key]) => named.has(key) || isStatusKey(key))
      .map(([id]) => id),
  );
  // The names of ledger kinds and assets: the console's customer ledger shows them too.
  const own = (origin: string) =>
    origin.startsWith('src/console/') ||
    origin === 'src/api-contract/console-texts.ts' ||
    origin === 'src/api-contract/ledger-kinds.ts';
  return (messageId: string) =>
    contractIds.has(messageId) ||
    (origins[messageId]?.origin ?? []).some(([origin]) => own(origin.split(sep).join('/')));
}
