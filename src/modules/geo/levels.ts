// The levels of the hierarchy as the loader and geo:import see them: table, CSV columns (the same
// names as the table's columns, in the order of the shipped files) and which table each parent
// column points at.
import type { GeoTableName } from './tables.js';

export interface ColumnSpec {
  name: string;
  kind: 'id' | 'name' | 'integer' | 'code' | 'flag';
  /** May be empty in the CSV (stored as NULL). */
  optional?: boolean;
  /** The column holds an id of this table; the importer checks that it exists. */
  parent?: GeoTableName;
}

export interface LevelSpec {
  /** Singular name, as operators type it: geo:import --level village. */
  level: string;
  table: GeoTableName;
  columns: ColumnSpec[];
  /** The CSV shipped in assets/geo (villages is gzip-compressed); none for streets and alleys. */
  bundledFile?: string;
}

const ID: ColumnSpec = { name: 'id', kind: 'id' };
const NAME: ColumnSpec = { name: 'name', kind: 'name' };
const AMAR_CODE: ColumnSpec = { name: 'amar_code', kind: 'code', optional: true };
const ACTIVE: ColumnSpec = { name: 'active', kind: 'flag' };
const parent = (name: string, table: GeoTableName, optional = false): ColumnSpec => ({
  name,
  kind: 'id',
  parent: table,
  optional,
});
const small = (name: string, optional = false): ColumnSpec => ({ name, kind: 'integer', optional });

/** In load order: every level after the levels its parent columns point at. */
export const LEVELS: LevelSpec[] = [
  { level: 'continent', table: 'continents', columns: [ID, NAME, ACTIVE], bundledFile: 'continents.csv' },
  {
    level: 'country',
    table: 'countries',
    columns: [ID, NAME, parent('continent_id', 'continents'), ACTIVE],
    bundledFile: 'countries.csv',
  },
  {
    level: 'province',
    table: 'provinces',
    columns: [ID, NAME, parent('country_id', 'countries'), AMAR_CODE, ACTIVE],
    bundledFile: 'provinces.csv',
  },
  {
    level: 'county',
    table: 'counties',
    columns: [ID, NAME, parent('province_id', 'provinces'), AMAR_CODE, ACTIVE],
    bundledFile: 'counties.csv',
  },
  {
    level: 'district',
    table: 'districts',
    columns: [ID, NAME, parent('province_id', 'provinces'), parent('county_id', 'counties'), AMAR_CODE, ACTIVE],
    bundledFile: 'districts.csv',
  },
  {
    level: 'city',
    table: 'cities',
    columns: [
      ID,
      NAME,
      small('city_type'),
      parent('province_id', 'provinces'),
      parent('county_id', 'counties'),
      parent('district_id', 'districts'),
      AMAR_CODE,
      ACTIVE,
    ],
    bundledFile: 'cities.csv',
  },
  {
    level: 'rural',
    table: 'rurals',
    columns: [
      ID,
      NAME,
      parent('province_id', 'provinces'),
      parent('county_id', 'counties'),
      parent('district_id', 'districts'),
      AMAR_CODE,
      ACTIVE,
    ],
    bundledFile: 'rurals.csv',
  },
  {
    level: 'village',
    table: 'villages',
    columns: [
      ID,
      NAME,
      small('village_type'),
      small('diag', true),
      parent('province_id', 'provinces'),
      parent('county_id', 'counties'),
      parent('district_id', 'districts'),
      parent('rural_id', 'rurals'),
      AMAR_CODE,
      ACTIVE,
    ],
    bundledFile: 'villages.csv.gz',
  },
  {
    level: 'region',
    table: 'regions',
    columns: [
      ID,
      NAME,
      parent('city_id', 'cities'),
      parent('province_id', 'provinces', true),
      parent('district_id', 'districts', true),
      AMAR_CODE,
      ACTIVE,
    ],
    bundledFile: 'regions.csv',
  },
  {
    level: 'neighborhood',
    table: 'neighborhoods',
    columns: [ID, NAME, parent('region_id', 'regions'), ACTIVE],
    bundledFile: 'neighborhoods.csv',
  },
  { level: 'street', table: 'streets', columns: [ID, NAME, parent('neighborhood_id', 'neighborhoods'), ACTIVE] },
  { level: 'alley', table: 'alleys', columns: [ID, NAME, parent('street_id', 'streets'), ACTIVE] },
];

/** A level by its singular or table name, any case; "section" is the API's name for districts. */
export function findLevel(name: string): LevelSpec | undefined {
  const wanted = name.trim().toLowerCase();
  const alias = wanted === 'section' || wanted === 'sections' ? 'district' : wanted;
  return LEVELS.find((l) => l.level === alias || l.table === alias);
}
