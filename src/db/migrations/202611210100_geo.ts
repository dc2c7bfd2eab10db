// The geographic hierarchy: one table per level, ids kept exactly as in the source data (clients
// store them), so the primary keys are plain integers, not generated. Parent columns are indexed
// where the API looks rows up by them. No foreign keys: the levels are loaded and re-imported one
// at a time (geo:import), and the importer checks parents itself with a readable message per row.
import { sql, type CreateTableBuilder, type Kysely } from 'kysely';

type Column = [name: string, type: 'integer' | 'varchar(255)' | 'varchar(20)', notNull: boolean];

const NAME: Column = ['name', 'varchar(255)', true];
const AMAR_CODE: Column = ['amar_code', 'varchar(20)', false];
const int = (name: string, notNull = true): Column => [name, 'integer', notNull];

const TABLES: Array<{ table: string; columns: Column[]; indexed: string[] }> = [
  { table: 'continents', columns: [NAME], indexed: [] },
  { table: 'countries', columns: [NAME, int('continent_id')], indexed: ['continent_id'] },
  { table: 'provinces', columns: [NAME, int('country_id'), AMAR_CODE], indexed: ['country_id'] },
  { table: 'counties', columns: [NAME, int('province_id'), AMAR_CODE], indexed: ['province_id'] },
  { table: 'districts', columns: [NAME, int('province_id'), int('county_id'), AMAR_CODE], indexed: ['county_id'] },
  {
    table: 'cities',
    columns: [NAME, int('city_type'), int('province_id'), int('county_id'), int('district_id'), AMAR_CODE],
    indexed: ['district_id'],
  },
  {
    table: 'rurals',
    columns: [NAME, int('province_id'), int('county_id'), int('district_id'), AMAR_CODE],
    indexed: ['district_id'],
  },
  {
    table: 'villages',
    columns: [
      NAME,
      int('village_type'),
      int('diag', false),
      int('province_id'),
      int('county_id'),
      int('district_id'),
      int('rural_id'),
      AMAR_CODE,
    ],
    indexed: ['district_id', 'rural_id'],
  },
  {
    table: 'regions',
    columns: [NAME, int('city_id'), int('province_id', false), int('district_id', false), AMAR_CODE],
    indexed: ['city_id'],
  },
  { table: 'neighborhoods', columns: [NAME, int('region_id')], indexed: ['region_id'] },
  { table: 'streets', columns: [NAME, int('neighborhood_id')], indexed: ['neighborhood_id'] },
  { table: 'alleys', columns: [NAME, int('street_id')], indexed: ['street_id'] },
];

export async function up(db: Kysely<any>): Promise<void> {
  for (const { table, columns, indexed } of TABLES) {
    let builder: CreateTableBuilder<string, string> = db.schema
      .createTable(table)
      .addColumn('id', 'integer', (c) => c.primaryKey());
    for (const [name, type, notNull] of columns) {
      builder = builder.addColumn(name, type, (c) => (notNull ? c.notNull() : c));
    }
    await builder.addColumn('active', 'integer', (c) => c.notNull().defaultTo(1)).execute();
    for (const column of indexed) {
      await db.schema.createIndex(`${table}_${column}_index`).on(table).column(column).execute();
    }
  }
  // Bumped by every geo:import, so a running server notices new data and rebuilds its index.
  await db.schema
    .createTable('geo_revision')
    .addColumn('id', 'integer', (c) => c.primaryKey())
    .addColumn('revision', 'integer', (c) => c.notNull())
    .execute();
  await sql`insert into geo_revision (id, revision) values (1, 0)`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('geo_revision').execute();
  for (const { table } of [...TABLES].reverse()) await db.schema.dropTable(table).execute();
}
