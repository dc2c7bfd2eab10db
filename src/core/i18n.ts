// Messages in English (default) and Persian. Each module registers its own catalogue with
// registerMessages; t() picks the request's language from Accept-Language.

export type Locale = 'en' | 'fa';
export type Catalogue = Record<string, Record<Locale, string>>;

const messages = new Map<string, Record<Locale, string>>();

export function registerMessages(catalogue: Catalogue): void {
  for (const [key, value] of Object.entries(catalogue)) messages.set(key, value);
}

/** The preferred supported language of an Accept-Language header; English when none is supported. */
export function localeFromHeader(header: string | undefined): Locale {
  if (!header) return 'en';
  let best: { locale: Locale; q: number } | undefined;
  for (const part of header.slice(0, 512).split(',')) {
    const [tag = '', ...params] = part.trim().split(';');
    const primary = tag.trim().toLowerCase().split('-')[0];
    if (primary !== 'en' && primary !== 'fa') continue;
    const qParam = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    const q = qParam ? Number(qParam.slice(2)) : 1;
    if (!Number.isFinite(q) || q <= 0) continue;
    if (!best || q > best.q) best = { locale: primary, q };
  }
  return best?.locale ?? 'en';
}

/** The message for key in the given language, with :name placeholders filled. */
export function t(locale: Locale, key: string, params: Record<string, string | number> = {}): string {
  const entry = messages.get(key);
  if (!entry) throw new Error(`no message registered for key "${key}"`);
  return entry[locale].replace(/:([a-z_]+)/g, (whole, name: string) => (name in params ? String(params[name]) : whole));
}
