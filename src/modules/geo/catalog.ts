// The geographic data as the API serves it, held in memory: every response body the endpoints
// can give is serialised once, with its ETag, on its first request after the catalogue is built,
// so a request is one Map lookup. Built at start (after the first-start load) and rebuilt when geo:import has bumped
// the revision in the database (checked every REVISION_CHECK_MS while the server runs).
import { createHash } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.js';
import { activeRows, currentRevision } from './repository.js';

export interface CachedBody {
  readonly body: Buffer;
  readonly etag: string;
}

export type GeoItem = { id: number | string; name: string };

export const REVISION_CHECK_MS = 30_000;

/** Appended to a rural's name in the children of a section (the word for "rural district"). */
export const RURAL_LABEL_SUFFIX = ' (دهستان)';
/** Names in Persian alphabetical order (numbers in numeric order), then by id: a total, stable order. */
const collator = new Intl.Collator('fa', { numeric: true });
const byNameThenId = (a: { name: string; id: number }, b: { name: string; id: number }) =>
  collator.compare(a.name, b.name) || a.id - b.id;

/**
 * A body serialised, and its ETag hashed, when first asked for: a build makes thousands of them and
 * most are never requested, so a start does not wait for them (docs/performance.md, "Startup").
 */
class LazyBody implements CachedBody {
  private bytes: Buffer | undefined;
  private tag: string | undefined;

  constructor(private value: unknown) {}

  get body(): Buffer {
    if (!this.bytes) {
      this.bytes = Buffer.from(JSON.stringify(this.value));
      this.value = undefined;
    }
    return this.bytes;
  }

  get etag(): string {
    this.tag ??= `"${createHash('sha1').update(this.body).digest('base64url')}"`;
    return this.tag;
  }
}

function cached(value: unknown): CachedBody {
  return new LazyBody(value);
}

export const EMPTY_ARRAY = cached([]);
export const EMPTY_DATA = cached({ data: [] });

type Row = { id: number; name: string } & Record<string, number | string>;

/** Active rows of a table, sorted, grouped by a parent column (order within groups kept). */
function groupBy(rows: Row[], column: string): Map<number, Row[]> {
  const groups = new Map<number, Row[]>();
  for (const row of rows) {
    const key = row[column] as number | null;
    if (key === null || key === undefined) continue;
    const list = groups.get(key);
    if (list) list.push(row);
    else groups.set(key, [row]);
  }
  return groups;
}

const plain = (rows: Row[]): GeoItem[] => rows.map((r) => ({ id: r.id, name: r.name }));

async function sortedRows(
  db: Kysely<Database>,
  table: Parameters<typeof activeRows>[1],
  columns: string[],
): Promise<Row[]> {
  const rows = (await activeRows(db, table, columns)) as unknown as Row[];
  return rows.sort(byNameThenId);
}

/** Builds every body: keys are `provinces`, `counties/8`, `children/section/785`, `children/city/city_4`... */
export async function buildBodies(db: Kysely<Database>): Promise<Map<string, CachedBody>> {
  const bodies = new Map<string, CachedBody>();
  await Promise.all([buildMainBodies(db, bodies), buildVillageBodies(db, bodies)]);
  return bodies;
}

/**
 * The villages' bodies (`villages/<district>`, `children/city/rural_<rural>`): read and sorted
 * apart, as they are most of the data (about 98,000 rows) and of the time a build takes.
 */
export async function buildVillageBodies(db: Kysely<Database>, bodies: Map<string, CachedBody>): Promise<void> {
  const villages = await sortedRows(db, 'villages', ['district_id', 'rural_id']);
  for (const [districtId, group] of groupBy(villages, 'district_id'))
    bodies.set(`villages/${districtId}`, cached({ data: plain(group) }));
  for (const [ruralId, group] of groupBy(villages, 'rural_id'))
    bodies.set(`children/city/rural_${ruralId}`, cached(plain(group)));
}

/** Every other body. */
async function buildMainBodies(db: Kysely<Database>, bodies: Map<string, CachedBody>): Promise<void> {
  const [
    continents,
    countries,
    provinces,
    counties,
    districts,
    cities,
    rurals,
    regions,
    neighborhoods,
    streets,
    alleys,
  ] = await Promise.all([
    sortedRows(db, 'continents', []),
    sortedRows(db, 'countries', ['continent_id']),
    sortedRows(db, 'provinces', ['country_id']),
    sortedRows(db, 'counties', ['province_id']),
    sortedRows(db, 'districts', ['county_id']),
    sortedRows(db, 'cities', ['district_id']),
    sortedRows(db, 'rurals', ['district_id']),
    sortedRows(db, 'regions', ['city_id']),
    sortedRows(db, 'neighborhoods', ['region_id']),
    sortedRows(db, 'streets', ['neighborhood_id']),
    sortedRows(db, 'alleys', ['street_id']),
  ]);

  bodies.set('provinces', cached({ data: plain(provinces) }));
  bodies.set('continents', cached(plain(continents)));

  // The integer-path endpoints: {data: [...]}.
  const wrapped: Array<[string, Row[], string]> = [
    ['counties', counties, 'province_id'],
    ['districts', districts, 'county_id'],
    ['cities', cities, 'district_id'],
  ];
  for (const [name, rows, column] of wrapped) {
    for (const [parentId, group] of groupBy(rows, column))
      bodies.set(`${name}/${parentId}`, cached({ data: plain(group) }));
  }

  // The children endpoint: bare arrays, keyed by the parent's level.
  const children: Array<[string, Row[], string, string]> = [
    ['continent', countries, 'continent_id', ''],
    ['country', provinces, 'country_id', ''],
    ['province', counties, 'province_id', ''],
    ['county', districts, 'county_id', ''],
    ['city', regions, 'city_id', 'city_'],
    ['region', neighborhoods, 'region_id', ''],
    ['neighborhood', streets, 'neighborhood_id', ''],
    ['street', alleys, 'street_id', ''],
  ];
  for (const [level, rows, column, prefix] of children) {
    for (const [parentId, group] of groupBy(rows, column))
      bodies.set(`children/${level}/${prefix}${parentId}`, cached(plain(group)));
  }

  // A section's children: its cities and rurals in one list, by the name shown, then cities before
  // rurals, then id. A rural is shown as "<name> (دهستان)", as the original did, so a rural and a
  // city of the same name can be told apart in the picker.
  const sections = new Map<number, Array<GeoItem & { kind: number; key: number }>>();
  for (const [rows, kind, prefix, suffix] of [
    [cities, 0, 'city_', ''],
    [rurals, 1, 'rural_', RURAL_LABEL_SUFFIX],
  ] as const) {
    for (const row of rows) {
      const districtId = row.district_id as number;
      const list = sections.get(districtId) ?? [];
      list.push({ id: `${prefix}${row.id}`, name: `${row.name}${suffix}`, kind, key: row.id });
      sections.set(districtId, list);
    }
  }
  for (const [districtId, items] of sections) {
    items.sort((a, b) => collator.compare(a.name, b.name) || a.kind - b.kind || a.key - b.key);
    bodies.set(`children/section/${districtId}`, cached(items.map(({ id, name }) => ({ id, name }))));
  }
}

export class GeoCatalog {
  private bodies = new Map<string, CachedBody>();
  private revision: number | undefined;
  private timer: NodeJS.Timeout | undefined;
  private refreshing: Promise<void> | undefined;
  private villages: Promise<void> | undefined;
  /** False from start() until the villages' bodies are in. */
  complete = true;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly log: FastifyBaseLogger,
  ) {}

  /** The cached body for a key, or undefined when there is nothing under that parent. */
  get(key: string): CachedBody | undefined {
    return this.bodies.get(key);
  }

  /**
   * The build of a starting server: every body but the villages' now, so the server answers sooner
   * (docs/performance.md, "Startup"); theirs on the first request that may need them
   * (whenComplete) or when the server calls whenComplete soon after it listens.
   */
  async start(): Promise<void> {
    const started = Date.now();
    const revision = await currentRevision(this.db);
    const bodies = new Map<string, CachedBody>();
    await buildMainBodies(this.db, bodies);
    this.bodies = bodies;
    this.revision = revision;
    this.complete = false;
    this.log.info(
      { entries: bodies.size, revision, ms: Date.now() - started },
      'geo: in-memory index built but the villages',
    );
  }

  /** Resolves once every body is in: builds the villages' bodies after start(), once. */
  whenComplete(): Promise<void> {
    if (this.complete) return Promise.resolve();
    this.villages ??= (async () => {
      const target = this.bodies;
      const villages = new Map<string, CachedBody>();
      await buildVillageBodies(this.db, villages);
      // A rebuild meanwhile has swapped in a complete set: this one is older.
      if (this.bodies !== target) return;
      for (const [key, body] of villages) target.set(key, body);
      this.complete = true;
    })().finally(() => (this.villages = undefined));
    return this.villages;
  }

  /** Rebuilds every body from the database and swaps them in at once. */
  async rebuild(): Promise<void> {
    const started = Date.now();
    const revision = await currentRevision(this.db);
    const bodies = await buildBodies(this.db);
    this.bodies = bodies;
    this.revision = revision;
    this.complete = true;
    this.log.info({ entries: bodies.size, revision, ms: Date.now() - started }, 'geo: in-memory index built');
  }

  /** Rebuilds when geo:import has changed the data since the last build. */
  async refreshIfChanged(): Promise<boolean> {
    if (this.refreshing !== undefined) {
      await this.refreshing;
      return false;
    }
    const revision = await currentRevision(this.db);
    if (revision === this.revision) return false;
    this.refreshing = this.rebuild().finally(() => (this.refreshing = undefined));
    await this.refreshing;
    return true;
  }

  /** Checks the revision on an interval; a failed check keeps serving the current index. */
  watch(intervalMs = REVISION_CHECK_MS): void {
    this.stop();
    this.timer = setInterval(() => {
      this.refreshIfChanged().catch((err: unknown) =>
        this.log.warn({ err }, 'geo: revision check failed; serving the current index'),
      );
    }, intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
