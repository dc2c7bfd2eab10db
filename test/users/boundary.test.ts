// The users boundary (src/modules/users/service.ts): outside the users module only migrations
// touch the users table (the answer versions live in answer_versions since 202611240100). Read from the
// source text, so a new query that reaches into the table fails here with its file and line.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { filesUnder } from '../../harness/files.js';

const SRC = path.resolve(import.meta.dirname, '../../src');
const OWNERS = [path.join(SRC, 'modules/users'), path.join(SRC, 'db/migrations')];

/** A Kysely builder naming the users table, or SQL text reading or writing it. */
const USERS_ACCESS =
  /\b(?:selectFrom|updateTable|insertInto|deleteFrom|mergeInto|innerJoin|leftJoin|rightJoin|fullJoin)\(\s*['"`]users\b|\b(?:from|join|update|into)\s+"?users"?\b/gi;

const sourceFiles = (dir: string) =>
  filesUnder(dir, { keep: (name) => name.endsWith('.ts'), skipFolder: (folder) => OWNERS.includes(folder) });

/** Each place in the text that touches the users table and is not allowed, as "line: statement". */
function usersAccesses(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(USERS_ACCESS)) {
    const start = text.lastIndexOf('\n', match.index) + 1;
    // The statement around the match: far enough to see the columns it reads or sets.
    const statement = text.slice(start, match.index + 200).replace(/\s+/g, ' ');
    found.push(`${text.slice(0, match.index).split('\n').length}: ${statement.trim().slice(0, 120)}`);
  }
  return found;
}

describe('the users table behind the users module', () => {
  it('finds a read of the users table in a query builder or in SQL text', () => {
    expect(usersAccesses("db.selectFrom('users').select(['id', 'locale'])")).toHaveLength(1);
    expect(
      usersAccesses("db.selectFrom('assistant_feedback as f').innerJoin('users as u', 'u.id', 'f.user_id')"),
    ).toHaveLength(1);
    expect(usersAccesses('sql`select email from users where id = ${id}`')).toHaveLength(1);
    expect(
      usersAccesses("db.selectFrom('users').select('notifications_version').where('id', '=', userId)"),
    ).toHaveLength(1);
    expect(usersAccesses("db.selectFrom('user_settings').select('id') // users of the page")).toEqual([]);
  });

  it('is not read or written by any module but users (migrations aside)', () => {
    const offending = sourceFiles(SRC).flatMap((file) =>
      usersAccesses(fs.readFileSync(file, 'utf8')).map((place) => `${path.relative(SRC, file)}:${place}`),
    );
    expect(offending).toEqual([]);
  });
});
