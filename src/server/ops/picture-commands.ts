// `npm run ops -- pictures strip-metadata`: pictures stored before uploads were kept without their metadata are
// rewritten without it (domain/stored-picture-metadata.ts), each one an audit entry; safe to run again.
import { COMMAND_LINE } from '../domain/audit-log.ts';
import { stripStoredPictureMetadata } from '../domain/stored-picture-metadata.ts';
import { UsageError, type Command } from './command-kit.ts';

export const PICTURES_USAGE = `  pictures strip-metadata                       rewrite every stored picture still holding metadata (GPS position,
                                                camera serial number…) without it, as uploads are kept now; names
                                                those it cannot read and leaves them; safe to run again`;

export const pictureCommands: Record<string, Command> = {
  async pictures({ db, now }, [action, ...extra]) {
    if (action !== 'strip-metadata' || extra.length) throw new UsageError('Usage: pictures strip-metadata');
    const pass = await stripStoredPictureMetadata(db, COMMAND_LINE, now);
    const kb = (pass.bytesFreed / 1024).toFixed(1);
    const unreadable = pass.unreadable.length
      ? `\n${pass.unreadable.length} could not be read and were left as they are (look with picture <id> <file>):\n${pass.unreadable.join('\n')}`
      : '';
    return `${pass.examined} pictures read, ${pass.rewritten} rewritten without their metadata (${kb} KB freed).${unreadable}`;
  },
};
