// Who is signed in, for every page: resolved at start, cleared when the service answers 401.
import { api, type Credential, onSignedOut, resolveCredential, signOut } from './api/client';
import { localeStore, setLocale, type Locale } from './i18n';
import { createStore } from './ui/store';

export type SessionState =
  | { status: 'loading' }
  | { status: 'signed-out' }
  | { status: 'signed-in'; credential: Credential };

export const sessionStore = createStore<SessionState>({ status: 'loading' });

onSignedOut(() => sessionStore.set({ status: 'signed-out' }));

export async function startSession(): Promise<void> {
  const credential = await resolveCredential().catch(() => null);
  if (!credential) return sessionStore.set({ status: 'signed-out' });
  // The language stored on the staff member (chosen in any browser) wins over this browser's.
  const remembered = credential.user.locale;
  if (credential.kind === 'session' && (remembered === 'en' || remembered === 'fa') && remembered !== localeStore.get())
    setLocale(remembered);
  sessionStore.set({ status: 'signed-in', credential });
}

export async function endSession(): Promise<void> {
  await signOut().catch(() => undefined);
  sessionStore.set({ status: 'signed-out' });
}

/** Remembers the language here and, for a console session, on the server. */
export async function chooseLocale(locale: Locale): Promise<void> {
  setLocale(locale);
  const state = sessionStore.get();
  if (state.status === 'signed-in' && state.credential.kind === 'session')
    await api.PUT('/api/console/preferences', { body: { locale } }).catch(() => undefined);
}
