// The geographic module's part of GET /health/ready: the catalogue is loaded.
import type { ReadinessCheck } from '../../core/probes.js';
import { hasProvinces } from './repository.js';

export const geoReadiness: ReadinessCheck = {
  name: 'geo_data',
  detail: 'the geographic data is not loaded',
  ready: (deps) => hasProvinces(deps.db),
};
