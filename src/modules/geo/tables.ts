// Geographic tables. Ids come from the source data (never generated); active is 0 or 1.

interface Named {
  id: number;
  name: string;
  active: number;
}

export interface ContinentTable extends Named {}
export interface CountryTable extends Named {
  continent_id: number;
}
export interface ProvinceTable extends Named {
  country_id: number;
  amar_code: string | null;
}
export interface CountyTable extends Named {
  province_id: number;
  amar_code: string | null;
}
export interface DistrictTable extends Named {
  province_id: number;
  county_id: number;
  amar_code: string | null;
}
export interface CityTable extends Named {
  city_type: number;
  province_id: number;
  county_id: number;
  district_id: number;
  amar_code: string | null;
}
export interface RuralTable extends Named {
  province_id: number;
  county_id: number;
  district_id: number;
  amar_code: string | null;
}
export interface VillageTable extends Named {
  village_type: number;
  diag: number | null;
  province_id: number;
  county_id: number;
  district_id: number;
  rural_id: number;
  amar_code: string | null;
}
export interface RegionTable extends Named {
  city_id: number;
  province_id: number | null;
  district_id: number | null;
  amar_code: string | null;
}
export interface NeighborhoodTable extends Named {
  region_id: number;
}
export interface StreetTable extends Named {
  neighborhood_id: number;
}
export interface AlleyTable extends Named {
  street_id: number;
}
export interface GeoRevisionTable {
  id: number;
  revision: number;
}

export interface GeoTables {
  continents: ContinentTable;
  countries: CountryTable;
  provinces: ProvinceTable;
  counties: CountyTable;
  districts: DistrictTable;
  cities: CityTable;
  rurals: RuralTable;
  villages: VillageTable;
  regions: RegionTable;
  neighborhoods: NeighborhoodTable;
  streets: StreetTable;
  alleys: AlleyTable;
  geo_revision: GeoRevisionTable;
}

export type GeoTableName = Exclude<keyof GeoTables, 'geo_revision'>;
