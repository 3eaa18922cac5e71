// The operator command: `npm run ops -- <command>`, against the same database as the server
// (DATABASE_URL, else the embedded one in DATA_DIR — stop the server first: one process per folder).
// It edits products, posts station messages and reads the code outbox; no command can set or
// change a trade's outcome.
import { asc, desc, eq } from 'drizzle-orm';
import { loadConfig } from '../config.ts';
import { openDatabase, type Db } from '../db/connection.ts';
import { optionProducts, outbox } from '../db/schema.ts';
import { findUserByLogin } from '../domain/accounts.ts';
import { postMessage } from '../domain/messages.ts';
import { AMOUNT } from '../../contract/markets.ts';

const USAGE = `Usage: npm run ops -- <command>
  products                               list option products
  product <id> [yield=0.85] [min=1] [active=true|false]
                                         edit one option product
  message <all|username> "<title>" "<content>"
                                         post a station message to every user (all, those who
                                         register later included) or to one user (username,
                                         mobile number or e-mail address)
  outbox [n]                             the last n verification codes sent (default 20)`;

type Command = (db: Db, args: string[]) => Promise<void>;

const commands: Record<string, Command> = {
  async products(db) {
    const rows = await db.select().from(optionProducts).orderBy(asc(optionProducts.coin), asc(optionProducts.sort));
    console.table(rows.map((row) => ({ id: row.id, coin: row.coin, minutes: row.minutes, yield: row.yieldRate, min: row.minAmount, active: row.active })));
  },
  async product(db, [id, ...changes]) {
    if (!/^\d+$/.test(id ?? '')) throw new Error('Name the product by its id (see `products`).');
    const set: Partial<typeof optionProducts.$inferInsert> = {};
    for (const change of changes) {
      const [key, value = ''] = change.split('=');
      if (key === 'yield' && /^(0|[1-9]\d?)(\.\d{1,4})?$/.test(value)) set.yieldRate = value;
      else if (key === 'min' && AMOUNT.test(value) && Number(value) > 0) set.minAmount = value;
      else if (key === 'active' && (value === 'true' || value === 'false')) set.active = value === 'true';
      else throw new Error(`Cannot apply "${change}": use yield=0.85, min=1 or active=true|false.`);
    }
    if (!Object.keys(set).length) throw new Error('Nothing to change.');
    const [row] = await db.update(optionProducts).set(set).where(eq(optionProducts.id, Number(id))).returning();
    if (!row) throw new Error(`No product ${id}.`);
    console.log(`Product ${row.id} (${row.coin}, ${row.minutes} min): yield ${row.yieldRate}, minimum ${row.minAmount}, ${row.active ? 'active' : 'inactive'}. Orders already placed keep their terms.`);
  },
  async message(db, [to, title = '', content = '', ...extra]) {
    // Unquoted words would silently split into title and content: ask for the quotes instead.
    if (!to || !title.trim() || !content.trim() || extra.length) throw new Error('Usage: message <all|username> "<title>" "<content>" (quote the title and the content; neither may be empty).');
    const user = to === 'all' ? null : await findUserByLogin(db, to);
    if (to !== 'all' && !user) throw new Error(`No user "${to}".`);
    const row = await postMessage(db, { to: user?.id ?? null, title: title.trim(), content: content.trim() }, new Date());
    console.log(`Message ${row.id} "${row.title}" posted to ${user ? `${user.username} (user ${user.id})` : 'all users'}.`);
  },
  async outbox(db, [count]) {
    const rows = await db.select().from(outbox).orderBy(desc(outbox.id)).limit(Number(count ?? 20));
    console.table(rows.map((row) => ({ at: row.createdAt.toISOString(), channel: row.channel, target: row.target, message: row.body })));
  },
};

const [name, ...args] = process.argv.slice(2);
const command = name ? commands[name] : undefined;
if (!command) {
  console.log(USAGE);
  process.exit(name ? 1 : 0);
}
const database = await openDatabase(loadConfig().database);
try {
  await command(database.db, args);
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
} finally {
  await database.close();
}
