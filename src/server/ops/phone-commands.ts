// `npm run ops -- phones`: the accounts whose mobile number could not be brought to E.164 (domain/phone-duplicates.ts),
// the accounts of one handset together with what each holds. Nothing here merges accounts or moves money.
import { bringPhonesToE164, listedPhones } from '../domain/phone-duplicates.ts';
import { UsageError, table, type Command } from './command-kit.ts';

export const PHONES_USAGE = `  phones [check]                                accounts whose mobile number is not in E.164: several accounts on
                                                one handset (with their balances; never merged) or no mobile
                                                number; check: bring stored numbers to E.164 now, then list`;

export const phoneCommands: Record<string, Command> = {
  async phones({ db, now }, [action, ...extra]) {
    if ((action !== undefined && action !== 'check') || extra.length) throw new UsageError('Usage: phones [check]');
    const pass = action === 'check' ? await db.transaction((tx) => bringPhonesToE164(tx, now)) : null;
    const head = pass
      ? `${pass.converted} brought to E.164, ${pass.duplicates} accounts sharing a handset, ${pass.notMobile} with no mobile number.\n`
      : '';
    const rows = await listedPhones(db);
    return `${head}${table(
      rows.map((row) => ({
        handset: row.kind === 'duplicate' ? row.phone : 'not a mobile number',
        user: row.userId,
        username: row.username,
        stored: row.storedPhone,
        holds: row.holds.map(({ asset, amount }) => `${amount} ${asset}`).join(', ') || 'nothing',
        found: row.foundAt.toISOString(),
      })),
      'Every stored mobile number is in E.164.',
    )}`;
  },
};
