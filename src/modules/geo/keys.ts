// How a children request (level + parentId as the client sent them) maps to a catalogue key.
export const CHILD_LEVEL_NAMES = [
  'continent',
  'country',
  'province',
  'county',
  'section',
  'city',
  'region',
  'neighborhood',
  'street',
] as const;
const CHILD_LEVELS: ReadonlySet<string> = new Set(CHILD_LEVEL_NAMES);

export function isChildLevel(level: string): boolean {
  return CHILD_LEVELS.has(level);
}

const PLAIN_ID = /^\d{1,10}$/;
const PREFIXED_ID = /^(city|rural)_(\d{1,10})$/i;

/**
 * The key of `children/<level>/<parent>` for a known (lower-case) level, or undefined when the
 * parentId cannot name a parent of that level: not a number, or for level city not city_<id> or
 * rural_<id>. Leading zeros are ignored (08 is 8).
 */
export function childrenKey(level: string, parentId: string): string | undefined {
  if (level === 'city') {
    const match = PREFIXED_ID.exec(parentId);
    return match ? `children/city/${match[1]!.toLowerCase()}_${Number(match[2])}` : undefined;
  }
  return PLAIN_ID.test(parentId) ? `children/${level}/${Number(parentId)}` : undefined;
}
