// The operator command: `npm run ops -- <command>` (commands.ts lists them). It works on the same
// database as the server: PostgreSQL directly (DATABASE_URL); the embedded database directly when
// no server holds it, else through the running server's operator socket.
import { loadConfig } from '../config.ts';
import { embeddedDatabaseHolder, openDatabase } from '../db/connection.ts';
import { USAGE, isOperatorCommand, runOperatorCommand } from './commands.ts';
import { sendOperatorCommand, withFullFilePath, type OperatorAnswer } from './socket.ts';
import { BackupError, postgresBackupHelp, restoreEmbedded } from './backup.ts';
import { keyCheck, loadTwoFactorKey } from '../domain/two-factor-key.ts';
import { claimKeyCheck } from '../domain/config-entries.ts';

// The server (through the socket) may run in another folder: a file a command names is given by its full path.
const typed = process.argv.slice(2);
const argv = withFullFilePath(typed);
const config = loadConfig();

async function answer(): Promise<OperatorAnswer> {
  if (!isOperatorCommand(argv[0])) return { ok: argv.length === 0, output: USAGE };
  const [name, file] = argv;
  if ((name === 'backup' || name === 'restore') && file) {
    if (config.database.kind === 'postgres') return { ok: false, output: postgresBackupHelp(typed[1]) };
    if (name === 'restore' && config.database.kind === 'pglite') {
      return restoreEmbedded(config.database.dataDir, argv[1]).then(
        (output) => ({ ok: true, output }),
        (error: unknown) => {
          if (error instanceof BackupError) return { ok: false, output: error.message };
          throw error;
        },
      );
    }
  }
  if (config.database.kind === 'pglite') {
    const holder = embeddedDatabaseHolder(config.database.dataDir);
    if (holder) {
      return sendOperatorCommand(config.database.dataDir, argv).catch((error: unknown) => ({
        ok: false,
        output: `The server (process ${holder}) holds the database in ${config.database.kind === 'pglite' ? config.database.dataDir : ''} but did not answer on its operator socket: ${error instanceof Error ? error.message : String(error)}`,
      }));
    }
  }
  const database = await openDatabase(config.database);
  try {
    // `operator add` seals an authenticator with the server's own key: the same one every server process of this
    // database checks.
    const twoFactorKey =
      name === 'operator' ? loadTwoFactorKey(config.twoFactorKey, config.twoFactorKeyFile) : undefined;
    if (twoFactorKey) await claimKeyCheck(database.db, 'two_factor_key_check', keyCheck(twoFactorKey));
    const context = {
      db: database.db,
      now: new Date(),
      production: config.production,
      earnTimeZone: config.earnTimeZone,
      twoFactorKey,
      fourEyesUsdt: config.operatorConsole.fourEyesUsdt,
      rewardCaps: config.operatorConsole.rewardCaps,
    };
    return await runOperatorCommand(context, argv);
  } finally {
    await database.close();
  }
}

try {
  const { ok, output } = await answer();
  (ok ? console.log : console.error)(output);
  process.exitCode = ok ? 0 : 1;
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
}
