// The house rules of docs/architecture.md, checked on src/ (rules.ts holds the checkers). Each rule
// is also run on a small example that breaks it, so a checker that sees nothing cannot pass.
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  configImports,
  crossModuleQueryImports,
  edgeImports,
  importCycles,
  importsOfModule,
  longFiles,
  moduleClasses,
  readSources,
  sqlOutsideQueryFiles,
  templateGaps,
  type SourceFile,
} from './rules.js';

const files = readSources(path.resolve(import.meta.dirname, '../../src'));

/** Files allowed to hold SQL outside repository and query files, each with the reason. */
const SQL_ALLOWED: Record<string, string> = {};

/**
 * Imports of another module's repository or query file allowed, each with the reason. A module
 * reads another's data through that module's service functions (the console: tickets/service.ts,
 * tickets/staff-changes.ts); its row types, column lists and table types (rows.ts, tables.ts) are
 * not query files.
 */
const QUERY_IMPORTS_ALLOWED: Record<string, string> = {
  'modules/console/queue-query.ts -> modules/tickets/sla-sql.ts':
    "the staff queue's SLA views and filters are the SQL form of slaStatusOf, written once for the member's list and the queue (a copy could drift from it)",
};

/** Import cycles allowed, each with the reason; every other cycle fails. */
const CYCLES_ALLOWED: Record<string, string> = {
  'db/answer-versions.ts <-> db/compiled.ts <-> db/schema.ts':
    "type-only edges close it (schema.ts gathers every table's type, answer_versions' among them): nothing is loaded twice",
  'modules/notifications/events.ts <-> modules/notifications/schemas.ts':
    'type-only one way: events.ts builds data of the schemas’ static types, schemas.ts lists the statuses events.ts declares',
};

/**
 * Classes allowed in modules, each with the reason. Services are plain functions taking their
 * dependencies first (docs/decisions.md, "Services are plain functions"); what stays a class
 * holds state that lives as long as the app, or is one implementation of an interface.
 */
const CLASSES_ALLOWED: Record<string, string> = {
  'modules/assistant/document-sentences.ts: DocumentSentences':
    "the sentence vectors of the document pages compared so far, kept while the index's counts hold",
  'modules/assistant/finglish-reader.ts: LatinReader':
    "tables built from the knowledge base's Persian words, changed as its texts change",
  'modules/assistant/index-words.ts: IndexWords':
    "what each token becomes in one language's index, remembered until its vocabulary changes",
  'modules/assistant/knowledge-index.ts: LanguageIndex': "one language's search index, rebuilt when sources change",
  'modules/assistant/knowledge.ts: KnowledgeBase':
    'the passages of every source and their indexes, for the life of the app',
  'modules/assistant/ngrams.ts: PhrasingIndex': 'an n-gram index over the phrasings, changed one owner at a time',
  'modules/assistant/word-index.ts: WordIndex':
    "an inverted index of the passages' words, changed one passage at a time",
  'modules/assistant/providers/offline.ts: OfflineProvider': 'one implementation of AnswerProvider',
  'modules/assistant/providers/openai.ts: OpenAiProvider':
    "one implementation of AnswerProvider, holding the model server's client",
  'modules/console/staff-signals.ts: StaffPoll':
    'one implementation of the staff signals (SQLite poll), with its timer',
  'modules/console/staff-signals.ts: StaffPostgresSignals':
    'one implementation of the staff signals (LISTEN), with its connection',
  'modules/console/staff-stream.ts: StaffStreams': "this instance's open staff streams",
  'modules/geo/catalog.ts: GeoCatalog': 'the geographic lists held in memory and swapped on a new import',
  'modules/geo/catalog.ts: LazyBody': 'an answer body serialised on first use and kept',
  'modules/kb-files/document-index.ts: DocumentIndex':
    "the uploaded documents' passages in the assistant, with the revision it follows",
  'modules/kb/live.ts: KnowledgeWatch': 'the watcher of knowledge base changes, with its signal subscription',
  'modules/notifications/events.ts: NotificationBuilder':
    "builds values only (no I/O), each with the app's URL bound once",
  'modules/notifications/live/signals.ts: PostgresSignals':
    'one implementation of ChangeSignals (LISTEN), with its connection',
  'modules/notifications/live/signals.ts: SqlitePoll':
    'one implementation of ChangeSignals (SQLite poll), with its timer',
  'modules/notifications/live/streams.ts: NotificationStream': 'one open stream and its cursor',
  'modules/notifications/live/streams.ts: NotificationStreams': "this instance's open notification streams",
  'modules/tickets/calendar/clock.ts: SlaClock': 'the working calendar with the holidays it has read',
  'modules/tickets/storage/disk.ts: DiskStorage': 'one implementation of AttachmentStorage',
  'modules/tickets/storage/s3.ts: S3Storage': 'one implementation of AttachmentStorage, holding the S3 client',
  'modules/tickets/storage/temp-files.ts: TempFiles':
    "the storage drivers' folder of temporary uploads (write, list, remove)",
  'modules/users/console/sessions.ts: ConsoleSessionVerifier':
    'the console sessions seen recently (a cache of last use)',
  'modules/users/tokens.ts: TokenVerifier': "the tokens' last-use cache",
};

const src = (name: string, text: string): SourceFile => ({ name, text });
/** An import line of an example, written so that the folder check (harness.test.ts) does not read it as this file's. */
const line = (keyword: string, names: string, specifier: string) => `${keyword} ${names} from '${specifier}';`;

/** A rule with an allow-list holds on src/ but for what the list allows, and the list names only what exists. */
function holdsWithAllowList(what: string, check: (sources: SourceFile[]) => string[], allowed: Record<string, string>) {
  it(`holds on src/, but for the ${what} allowed with their reason`, () => {
    expect(check(files).filter((found) => !(found in allowed))).toEqual([]);
  });

  it(`keeps the allow-list to ${what} that exist`, () => {
    const found = check(files);
    expect(Object.keys(allowed).filter((name) => !found.includes(name))).toEqual([]);
  });
}

describe('SQL only in repository and query files, migrations and src/db/', () => {
  it('holds on src/', () => {
    expect(sqlOutsideQueryFiles(files, SQL_ALLOWED)).toEqual([]);
  });

  it('reports a query builder or raw SQL anywhere else', () => {
    const example = [
      src('modules/x/service.ts', "export const f = (db) => db.selectFrom('x').selectAll().execute();"),
      src('modules/x/clock.ts', 'const now = sql`select now()`;'),
      src('modules/x/repository.ts', "export const g = (db) => db.deleteFrom('x').execute();"),
      src('modules/x/list-query.ts', "export const h = (db) => db.updateTable('x');"),
      src('db/migrations/202601010000_x.ts', "await db.schema.createTable('x'); sql`vacuum`;"),
      src('modules/x/notes.ts', '// a comment may say db.selectFrom( without breaking the rule'),
    ];
    expect(sqlOutsideQueryFiles(example)).toEqual(['modules/x/service.ts', 'modules/x/clock.ts']);
    expect(sqlOutsideQueryFiles(example, { 'modules/x/clock.ts': 'reason' })).toEqual(['modules/x/service.ts']);
  });
});

describe('no import of src/http/ from a service, a repository or query file, or src/core/', () => {
  it('holds on src/', () => {
    expect(edgeImports(files)).toEqual([]);
  });

  it('reports each such import, type-only ones included', () => {
    const example = [
      src('modules/x/service.ts', line('import', '{ requestLocale }', '../../http/i18n.js')),
      src('modules/x/repository.ts', line('import', 'type { FieldErrors }', '../../http/validation.js')),
      src('core/errors.ts', line('export', '{ x }', '../http/schemas.js')),
      src('modules/x/routes.ts', line('import', '{ currentUser }', '../../http/auth.js')),
    ];
    expect(edgeImports(example)).toEqual([
      'modules/x/service.ts -> http/i18n.ts',
      'modules/x/repository.ts -> http/validation.ts',
      'core/errors.ts -> http/schemas.ts',
    ]);
  });
});

describe("no module imports another module's repository or query files", () => {
  holdsWithAllowList('imports', crossModuleQueryImports, QUERY_IMPORTS_ALLOWED);

  it('reports each such import, type-only ones included, and not those of its own module or of src/db/', () => {
    const example = [
      src('modules/x/service.ts', line('import', '* as other', '../y/repository.js')),
      src('modules/x/list-query.ts', line('import', 'type { Row }', '../y/list-query.js')),
      src('modules/x/view.ts', line('export', '{ rows }', '../y/sub/stream-repository.js')),
      src('modules/x/queue.ts', line('import', '{ a }', './repository.js')),
      src('modules/x/store-sql.ts', line('import', '{ b }', '../../db/like.js')),
      src('modules/x/presenter.ts', line('import', 'type { C }', '../y/rows.js')),
      src('modules/x/routes.ts', line('import', '{ d }', '../y/service.js')),
      src('plugins/x.ts', line('import', '{ e }', '../modules/y/repository.js')),
    ];
    expect(crossModuleQueryImports(example)).toEqual([
      'modules/x/service.ts -> modules/y/repository.ts',
      'modules/x/list-query.ts -> modules/y/list-query.ts',
      'modules/x/view.ts -> modules/y/sub/stream-repository.ts',
    ]);
  });
});

describe('no module imports the staff console: the console is built on tickets and users, never the reverse', () => {
  it('holds on src/', () => {
    expect(importsOfModule(files, 'console')).toEqual([]);
  });

  it('reports each such import, type-only ones included, and not those of the console itself or outside modules', () => {
    const example = [
      src('modules/tickets/staff-routes.ts', line('import', '{ expectVersion }', '../console/ticket-view.js')),
      src('modules/tickets/schemas.ts', line('import', 'type { Reply }', '../console/ticket-schemas.js')),
      src('modules/console/service.ts', line('import', '{ ticketOf }', '../tickets/service.js')),
      src('modules/console/ticket-view.ts', line('import', '* as repo', './ticket-query.js')),
      src('modules/users/directory.ts', line('import', '{ endSessionsOf }', './console/service.js')),
      src('modules/index.ts', line('import', 'staffConsoleRoutes', './console/routes.js')),
    ];
    expect(importsOfModule(example, 'console')).toEqual([
      'modules/tickets/staff-routes.ts -> modules/console/ticket-view.ts',
      'modules/tickets/schemas.ts -> modules/console/ticket-schemas.ts',
    ]);
  });
});

describe('the configuration imports no feature and not the edge', () => {
  it('holds on src/', () => {
    expect(configImports(files)).toEqual([]);
  });

  it('reports such an import', () => {
    const example = [
      src(
        'config.ts',
        `${line('import', '{ parseSchedule }', './modules/tickets/calendar/schedule.js')}\n${line('import', '{ x }', './core/working-week.js')}`,
      ),
      src('app.ts', line('import', '{ y }', './modules/geo/routes.js')),
    ];
    expect(configImports(example)).toEqual(['config.ts -> modules/tickets/calendar/schedule.ts']);
  });
});

describe('every module has the files of the template where it has the concern', () => {
  it('holds on src/', () => {
    expect(templateGaps(files)).toEqual([]);
  });

  it('reports a missing schemas, repository, tables or access file, and messages outside messages.ts', () => {
    const example = [
      src('modules/x/routes.ts', "app.get('/x', { config: { auth: 'user' } }, handler);"),
      src('modules/x/service.ts', "registerMessages({ 'x.done': { en: 'Done.', fa: 'انجام شد.' } });"),
      src('modules/x/store.ts', "export const f = (db) => db.insertInto('x');"),
    ];
    expect(templateGaps(example)).toEqual([
      'x: SQL without repository.ts',
      'x: SQL without tables.ts',
      'x: catalogue messages registered in service.ts, not messages.ts',
      "x: members' routes without access.ts",
      'x: routes without schemas.ts',
    ]);
  });
});

describe('no import cycles between files', () => {
  holdsWithAllowList('cycles', importCycles, CYCLES_ALLOWED);

  it('reports a cycle, type-only imports included', () => {
    const example = [
      src('modules/x/repository.ts', line('import', '{ COLUMNS }', './list-query.js')),
      src('modules/x/list-query.ts', line('import', 'type { Row }', './repository.js')),
      src('modules/x/service.ts', line('import', '* as repo', './repository.js')),
      src('modules/x/a.ts', line('export', '{ b }', './b.js')),
      src('modules/x/b.ts', line('import', '{\n  c,\n}', './c.js')),
      src('modules/x/c.ts', line('import', 'type { A }', './a.js')),
    ];
    expect(importCycles(example)).toEqual([
      'modules/x/a.ts <-> modules/x/b.ts <-> modules/x/c.ts',
      'modules/x/list-query.ts <-> modules/x/repository.ts',
    ]);
  });
});

describe('one service style: plain functions, classes only for stateful infrastructure', () => {
  holdsWithAllowList('classes', moduleClasses, CLASSES_ALLOWED);

  it('reports a class in a module, errors apart', () => {
    const example = [
      src('modules/x/service.ts', 'export class XService {\n  constructor(private readonly deps: AppDeps) {}\n}'),
      src('modules/x/directory.ts', 'class Directory implements Lookup {}'),
      src('modules/x/errors.ts', 'export class XRefused extends Error {}\nclass Late extends errors.TimeoutError {}'),
      src('modules/x/notes.ts', '// a comment may say class Y { without breaking the rule'),
      src('http/auth.ts', 'export class Edge {}'),
    ];
    expect(moduleClasses(example)).toEqual(['modules/x/directory.ts: Directory', 'modules/x/service.ts: XService']);
  });
});

describe('files in src/ stay at 300 lines or fewer', () => {
  it('holds on src/', () => {
    expect(longFiles(files)).toEqual([]);
  });

  it('reports a longer file', () => {
    expect(longFiles([src('a.ts', 'x\n'.repeat(301)), src('b.ts', 'x\n'.repeat(300))])).toEqual(['a.ts']);
  });
});
