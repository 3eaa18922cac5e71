// The operator command: `npm run ops -- <command>`, against the same database as the server
// (DATABASE_URL, else the embedded one in DATA_DIR — stop the server first: one process per folder).
// It edits products and reads the code outbox; no command can set or change a trade's outcome.
import { asc, desc, eq } from 'drizzle-orm';
import { loadConfig } from '../config.ts';
import { openDatabase, type Db } from '../db/connection.ts';
import { optionProducts, outbox } from '../db/schema.ts';
import { AMOUNT } from '../../contract/markets.ts';

const USAGE = `Usage: npm run ops -- <command>
  products                               list option products
  product <id> [yield=0.85] [min=1] [active=true|false]
                                         edit one option product
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
