// The configuration page (CONFIGURATION.md beside this file), made from config-schema.ts: one table per group, one row
// per variable. `npm run config:docs` runs this file and writes the page; a unit test fails when the checked-in page
// is not what the schema makes.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { GROUPS, VARIABLES, type Reader, type Variable } from './config-schema.ts';

/** Where the page is kept: beside the server's code. */
export const CONFIGURATION_PAGE = join(import.meta.dirname, 'CONFIGURATION.md');

const READ_BY: Record<Reader, string> = {
  server: '',
  build: ' (read by the build, `vite build`)',
  'server and build': ' (read by the build and by the server)',
};

/** A table cell: a `|` would end it, a line break would end the row. */
const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** The page's markdown: an introduction, then every group's table in GROUPS' order, the variables in the schema's. */
export function configurationPage(): string {
  const entries = Object.entries(VARIABLES) as [string, Variable<unknown>][];
  const sections = GROUPS.map((group) => {
    const rows = entries
      .filter(([, variable]) => variable.group === group)
      .map(
        ([name, variable]) =>
          `| \`${name}\` | ${cell(variable.type)} | ${cell(variable.default)} | ${cell(variable.meaning)}${READ_BY[variable.readBy]}. |`,
      );
    return [`## ${group}`, '', '| variable | value | unset | meaning |', '| --- | --- | --- | --- |', ...rows].join(
      '\n',
    );
  });
  return [
    '# Configuration',
    '',
    '<!-- Made by `npm run config:docs` from src/server/config-schema.ts: change the schema, then run it. -->',
    '',
    'The server is configured by environment variables only, read once at its start (the operator command, `npm run',
    'ops`, reads the same ones; the build reads those of the last section). A variable set to an empty value counts as',
    'unset. A value the server cannot use stops the start with one line per wrong variable, naming it; settings that go',
    'together (SMTP, an SMS provider, TLS) stop it when half given. The load-shedding limits alone are lenient: anything',
    `but a whole number is read as their default, as their rows say. ${entries.length} variables in all.`,
    '',
    ...sections.flatMap((section) => [section, '']),
  ].join('\n');
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  writeFileSync(CONFIGURATION_PAGE, configurationPage());
  console.log(`Wrote ${CONFIGURATION_PAGE}`);
}
