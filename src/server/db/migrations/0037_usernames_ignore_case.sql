-- A username is one name whatever its letter case or compatibility form ("Alice", "alice" and "ａｌｉｃｅ" are one):
-- the database refuses a second one by a unique index on the folded name, the same expression the application looks
-- names up by (domain/accounts.ts usernameKey). A database that already holds two accounts whose names fold alike is
-- not changed: neither account is renamed (either may hold money, and its owner signs in with the name as registered),
-- the index is left out with a warning, and the application's rule still refuses every new such name. Once the
-- duplicates are resolved, the index is created by hand with the statement below (db/decisions/0009-usernames-ignore-case.md).
DO $$
BEGIN
  IF EXISTS (SELECT 1 FROM "users" GROUP BY lower(normalize("username", NFKC)) HAVING count(*) > 1) THEN
    RAISE WARNING 'users_username_key_idx not created: accounts whose usernames differ only by letter case exist';
  ELSE
    CREATE UNIQUE INDEX "users_username_key_idx" ON "users" USING btree (lower(normalize("username", NFKC)));
  END IF;
END
$$;
