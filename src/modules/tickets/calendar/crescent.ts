// Whether the new crescent can be seen from Tehran on an evening, by Yallop's q-test (B. D. Yallop,
// "A Method for Predicting the First Sighting of the New Crescent Moon", NAO Technical Note 69,
// 1997): at the best time after sunset, Tb = sunset + 4/9 of (moonset - sunset), take the airless
// geocentric arc of vision ARCV (Moon's altitude minus the Sun's), the geocentric elongation ARCL
// and the topocentric crescent width W' in arc minutes; then
//   q = (ARCV - (11.8371 - 6.3226 W' + 0.7319 W'^2 - 0.1018 W'^3)) / 10.
// Yallop's classes: A q > +0.216 (easily visible), B > -0.014 (visible in perfect conditions),
// C > -0.160 (may need optical aid to find), D > -0.232 (needs optical aid), E > -0.293 (not
// visible with a telescope), F below. Positions come from astronomy-engine.
import * as Astronomy from 'astronomy-engine';

const DAY_MS = 86_400_000;
const DEG = Math.PI / 180;
const EARTH_EQUATORIAL_RADIUS_KM = 6378.14;

/** Tehran (Geophysics Institute of the University of Tehran, approximately). */
export const TEHRAN = new Astronomy.Observer(35.7, 51.4, 1200);

export type YallopClass = 'A' | 'B' | 'C' | 'D' | 'E' | 'F';

export interface EveningCrescent {
  /** Local evening (day number of the Gregorian date in Tehran). */
  day: number;
  sunset: Date;
  /** Moonset minus sunset, minutes; not positive when the Moon sets first. */
  lagMinutes: number;
  /** Hours from the conjunction to the best time; negative before the conjunction. */
  ageHours: number;
  /** Degrees at the best time. */
  arcv: number;
  arcl: number;
  moonAltitude: number;
  /** Topocentric crescent width, arc minutes. */
  width: number;
  q: number;
  yallop: YallopClass;
}

export function yallopClass(q: number): YallopClass {
  if (q > 0.216) return 'A';
  if (q > -0.014) return 'B';
  if (q > -0.16) return 'C';
  if (q > -0.232) return 'D';
  if (q > -0.293) return 'E';
  return 'F';
}

/** Yallop's q from the arc of vision (degrees) and the topocentric crescent width (arc minutes). */
export function yallopQ(arcv: number, width: number): number {
  return (arcv - (11.8371 - 6.3226 * width + 0.7319 * width ** 2 - 0.1018 * width ** 3)) / 10;
}

/** Airless altitude, at the observer, of a body's geocentric direction (no parallax). */
function geocentricAltitude(body: Astronomy.Body, time: Astronomy.AstroTime, observer: Astronomy.Observer): number {
  const ofDate = Astronomy.RotateVector(Astronomy.Rotation_EQJ_EQD(time), Astronomy.GeoVector(body, time, true));
  const equ = Astronomy.EquatorFromVector(ofDate);
  return Astronomy.Horizon(time, observer, equ.ra, equ.dec).altitude;
}

/** The conjunction (new moon) nearest before a moment, searching back at most 35 days. */
export function conjunctionBefore(at: Date): Date {
  const found = Astronomy.SearchMoonPhase(0, at, -35);
  if (!found) throw new Error(`no new moon in the 35 days before ${at.toISOString()}`);
  return found.date;
}

/**
 * The crescent on the evening of a local date in Tehran, or null when there is none to look for:
 * no sunset found, the Moon sets before the Sun, or the conjunction has not happened by the best
 * time.
 */
export function eveningCrescent(day: number, observer: Astronomy.Observer = TEHRAN): EveningCrescent | null {
  // Sunset in Tehran falls between 13:00 and 16:00 UTC; search from 06:00 UTC of the local date.
  const sunset = Astronomy.SearchRiseSet(Astronomy.Body.Sun, observer, -1, new Date(day * DAY_MS + 6 * 3_600_000), 1);
  if (!sunset) return null;
  const moonset = Astronomy.SearchRiseSet(Astronomy.Body.Moon, observer, -1, sunset, 1);
  const lagMinutes = moonset ? (moonset.ut - sunset.ut) * 1440 : 0;
  if (!moonset || lagMinutes <= 0 || lagMinutes > 1440 / 2) return null;
  const best = sunset.AddDays(((4 / 9) * lagMinutes) / 1440);
  const ageHours = (best.date.getTime() - conjunctionBefore(best.date).getTime()) / 3_600_000;
  if (ageHours <= 0) return null;

  const arcv =
    geocentricAltitude(Astronomy.Body.Moon, best, observer) - geocentricAltitude(Astronomy.Body.Sun, best, observer);
  const arcl = Astronomy.AngleFromSun(Astronomy.Body.Moon, best);
  const topo = Astronomy.Equator(Astronomy.Body.Moon, best, observer, true, true);
  const moonAltitude = Astronomy.Horizon(best, observer, topo.ra, topo.dec).altitude;
  const distanceKm = Astronomy.GeoVector(Astronomy.Body.Moon, best, true).Length() * Astronomy.KM_PER_AU;
  const parallax = Math.asin(EARTH_EQUATORIAL_RADIUS_KM / distanceKm); // radians
  const semiDiameter = 0.27245 * (parallax / DEG) * 60; // arc minutes, geocentric
  const topocentricSemiDiameter = semiDiameter * (1 + Math.sin(moonAltitude * DEG) * Math.sin(parallax));
  const width = topocentricSemiDiameter * (1 - Math.cos(arcl * DEG));
  const q = yallopQ(arcv, width);
  return {
    day,
    sunset: sunset.date,
    lagMinutes,
    ageHours,
    arcv,
    arcl,
    moonAltitude,
    width,
    q,
    yallop: yallopClass(q),
  };
}

/**
 * Whether the crescent counts as seen on an evening: Yallop's classes A to D, that is visible to the
 * naked eye or with optical aid (docs/decisions.md says why optical aid counts).
 */
export function crescentSeen(day: number): boolean {
  const crescent = eveningCrescent(day);
  return crescent !== null && SEEN.has(crescent.yallop);
}

const SEEN = new Set<YallopClass>(['A', 'B', 'C', 'D']);
