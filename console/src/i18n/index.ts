// The console's two languages: messages, the page's direction, and dates and numbers in the
// language's own calendar and digits (Jalali with Persian digits in Persian, Gregorian in English).
// The choice is remembered in this browser (localStorage) and, when signed in, on the server.
import { setLanguage } from '../api/client';
import { createStore, useStore } from '../ui/store';
import { en, type MessageKey } from './en';
import { fa } from './fa';

export type Locale = 'en' | 'fa';
export type { MessageKey };

const STORAGE_KEY = 'console.locale';
const catalogues: Record<Locale, Record<MessageKey, string>> = { en, fa };

function storedLocale(): Locale {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'fa' ? 'fa' : 'en';
  } catch {
    return 'en';
  }
}

export const localeStore = createStore<Locale>(storedLocale());

function apply(locale: Locale): void {
  document.documentElement.lang = locale;
  document.documentElement.dir = locale === 'fa' ? 'rtl' : 'ltr';
  setLanguage(locale);
}
apply(localeStore.get());
localeStore.subscribe(apply);

export function setLocale(locale: Locale): void {
  try {
    localStorage.setItem(STORAGE_KEY, locale);
  } catch {
    // storage refused (private mode): the choice lasts for this page
  }
  localeStore.set(locale);
}

const numberFormats = { en: new Intl.NumberFormat('en-US'), fa: new Intl.NumberFormat('fa-IR') };
const dateTimeFormats = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'short' }),
  fa: new Intl.DateTimeFormat('fa-IR-u-ca-persian', { dateStyle: 'medium', timeStyle: 'short' }),
};
const dateFormats = {
  en: new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeZone: 'UTC' }),
  fa: new Intl.DateTimeFormat('fa-IR-u-ca-persian', { dateStyle: 'medium', timeZone: 'UTC' }),
};

export function formatNumber(value: number, locale = localeStore.get()): string {
  return numberFormats[locale].format(value);
}

/** A moment (ISO timestamp) in the browser's zone and the language's calendar. */
export function formatDateTime(iso: string | null | undefined, locale = localeStore.get()): string {
  if (!iso) return '—';
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : dateTimeFormats[locale].format(date);
}

/** A calendar day (YYYY-MM-DD) in the language's calendar. */
export function formatDay(day: string, locale = localeStore.get()): string {
  const date = new Date(`${day}T00:00:00Z`);
  return Number.isNaN(date.getTime()) ? day : dateFormats[locale].format(date);
}

/** The message in the current language, with {name} filled in (numbers in the language's digits). */
export function t(key: MessageKey, params: Record<string, string | number> = {}, locale = localeStore.get()): string {
  return catalogues[locale][key].replace(/\{(\w+)\}/g, (whole, name: string) => {
    const value = params[name];
    if (value === undefined) return whole;
    return typeof value === 'number' ? formatNumber(value, locale) : value;
  });
}

/** Re-renders the component when the language changes; returns the language. */
export function useLocale(): Locale {
  return useStore(localeStore);
}

/** A key of the catalogue for a value the service sends (a status, a priority), else the value. */
export function label(prefix: string, value: string | null | undefined): string {
  if (value == null) return '—';
  const key = `${prefix}.${value}` as MessageKey;
  return key in en ? t(key) : value;
}
