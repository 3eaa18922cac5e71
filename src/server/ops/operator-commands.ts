// The console's operator accounts from the command line: `operator add` prints the first
// password and the authenticator's enrolment (an otpauth:// URI and its QR code in the terminal);
// both are shown this once. The command acts as the operator 'ops' in the audit log.
import { renderUnicodeCompact } from 'uqr';
import { COMMAND_LINE } from '../domain/audit-log.ts';
import { addOperator, disableOperator, listOperators } from '../domain/operators.ts';
import { ephemeralTwoFactorKey } from '../domain/two-factor-key.ts';
import { UsageError, table, type Command } from './command-kit.ts';

export const OPERATOR_USAGE = `  operator add <name> <reviewer|content|admin>  a console operator: prints the first password (changed at the
                                                first sign-in) and the authenticator enrolment (URI and QR code)
  operator list                                 console operators, their roles and whether they are disabled
  operator disable <name>                       no more sign-ins; the operator's sessions end`;

export const operatorCommands: Record<string, Command> = {
  async operator({ db, now, twoFactorKey = ephemeralTwoFactorKey() }, [action, name, role, ...extra]) {
    if (action === 'add' && name && role && !extra.length) {
      const added = await db.transaction((tx) => addOperator(tx, COMMAND_LINE, name, role, twoFactorKey, now));
      return [
        `Operator ${added.name} (${added.role}) added.`,
        `First password (to be changed at the first sign-in): ${added.password}`,
        `Authenticator: scan the QR code below, or add this URI to the app:`,
        added.uri,
        renderUnicodeCompact(added.uri),
        'Neither is shown again: hand them to the operator in person.',
      ].join('\n');
    }
    if (action === 'list' && !name) {
      const rows = await listOperators(db);
      return table(
        rows.map((row) => ({
          name: row.name,
          role: row.role,
          first_password: row.must_change_password ? 'not changed yet' : 'changed',
          since: row.created_at,
          disabled: row.disabled_at ?? '',
        })),
        'No operators.',
      );
    }
    if (action === 'disable' && name && !role) {
      const row = await db.transaction((tx) => disableOperator(tx, COMMAND_LINE, name, now));
      return `Operator ${row.name} disabled at ${row.disabled_at}; their sessions ended.`;
    }
    throw new UsageError(`Usage:\n${OPERATOR_USAGE}`);
  },
};
