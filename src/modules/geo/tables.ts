export interface GeoTables {}
