import { existsSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import { LOGIN_PAGE, TAB_PAGES } from './chunks.ts';
import { contractTextKeys, isStatusKey, sourceFacts } from './source.ts';

/**
 * What each part of the app reaches through its imports, read from the sources' syntax trees: the shell is what
 * src/main.tsx imports statically (the start chunk); an area is what the files of src/features/<area>/ import,
 * statically or lazily (features never import each other). Each file comes with the API contract texts it names
 * (`texts.key`, or a key as a string: `texts[prompt]`).
 */
export function readReach(root: string) {
  const files = new Map<string, { imports: string[]; lazy: string[]; textKeys: Set<string> }>();
  const textsFile = join(root, 'src/api-contract/texts.ts');
  const keyById = contractTextKeys(textsFile);
  const keys = new Set(keyById.values());
  // httpStatusText(status) picks one of these by the answer's status.
  const statusKeys = [...keys].filter(isStatusKey).concat('tooManyRequests', 'unknownError');
  const visit = (file: string) => {
    if (files.has(file) || !existsSync(file)) return;
    const { imports, lazy, textsRead, strings, callsHttpStatusText } = sourceFacts(file);
    const textKeys = new Set([...textsRead, ...strings].filter((key) => keys.has(key)));
    if (file !== textsFile && callsHttpStatusText) statusKeys.forEach((key) => textKeys.add(key));
    files.set(file, { imports, lazy, textKeys });
    [...imports, ...lazy].forEach(visit);
  };
  const closure = (starts: string[], withLazy: boolean, fence: (file: string) => boolean) => {
    const seen = new Set<string>();
    const walk = (file: string) => {
      if (seen.has(file) || !fence(file)) return;
      visit(file);
      seen.add(file);
      const entry = files.get(file);
      [...(entry?.imports ?? []), ...(withLazy ? (entry?.lazy ?? []) : [])].forEach(walk);
    };
    starts.forEach(walk);
    return seen;
  };
  const featuresDir = join(root, 'src/features');
  const main = [join(root, 'src/main.tsx')];
  const shell = closure(main, false, () => true);
  /** The shell and what it loads lazily itself (the update dialog, not-found), apart from the areas. */
  const shellAndLazy = closure(main, true, (file) => !file.startsWith(featuresDir + sep));
  const areas = new Map(
    readdirSync(featuresDir).map((area) => {
      const own = join(featuresDir, area) + sep;
      const starts = (readdirSync(own, { recursive: true }) as string[])
        .map((file) => join(own, file))
        .filter((file) => file.endsWith('.ts') || file.endsWith('.tsx'));
      return [
        area,
        closure(starts, true, (file) => !file.startsWith(featuresDir + sep) || file.startsWith(own)),
      ] as const;
    }),
  );
  /** The API contract text keys a part's files name, gathered once per part (every catalog part asks for each text). */
  const keysOf = new Map<Set<string>, Set<string>>();
  const usesKey = (reach: Set<string>, key: string) => {
    let keys = keysOf.get(reach);
    if (!keys)
      keysOf.set(reach, (keys = new Set([...reach].flatMap((file) => [...(files.get(file)?.textKeys ?? [])]))));
    return keys.has(key);
  };
  /** The files (outside src/features) that two or more tab pages import beyond the shell, apart from what login
   * imports. */
  const page = (file: string) => join(root, 'src/features', file);
  const ownCode = (file: string) => closure([page(file)], false, (other) => other === page(file) || !shell.has(other));
  const tabPages = TAB_PAGES.map(ownCode);
  const login = ownCode(LOGIN_PAGE);
  const tabsShared = new Set(
    [...new Set(tabPages.flatMap((files) => [...files]))].filter(
      (file) =>
        !file.startsWith(featuresDir + sep) &&
        !login.has(file) &&
        tabPages.filter((files) => files.has(file)).length >= 2,
    ),
  );
  return { shell, shellAndLazy, areas, textsFile, keyById, usesKey, tabsShared };
}
