// Statements prepared once per database: drizzle builds a statement's text, with placeholders, the first time it is
// asked for, and PostgreSQL parses and plans it once per pooled connection (a named statement). For the statements of
// (nearly) every call that run outside a transaction: built each time, a session's lookup cost about 175 µs of the
// server's CPU and a request's count about 275 µs; prepared, 80 and 100 µs (measured against PostgreSQL on loopback).
// A transaction's statements are built each time: a statement prepared here runs on the pool, never in a transaction.
import type { Db } from './connection.ts';

const preparedByDb = new WeakMap<Db, Map<string, unknown>>();

/** The statement `name` of `db`, prepared by `prepare` on first use; `name` is its name in PostgreSQL too. */
export function preparedOnce<T>(db: Db, name: string, prepare: (name: string) => T): T {
  let prepared = preparedByDb.get(db);
  if (!prepared) preparedByDb.set(db, (prepared = new Map()));
  let statement = prepared.get(name) as T | undefined;
  if (statement === undefined) prepared.set(name, (statement = prepare(name)));
  return statement;
}
