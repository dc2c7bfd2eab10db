// Sign in: the staff member's email; the service mails a one-time link to a staff address and
// answers the same for any address, so the page says the same whatever it was.
import { useState } from 'preact/hooks';
import { api, call } from '../api/client';
import { t } from '../i18n';
import { ErrorLine, PageTitle } from '../ui/parts';

export function SignInPage() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);

  const submit = async (event: Event) => {
    event.preventDefault();
    setBusy(true);
    setError(null);
    try {
      await call(api.POST('/api/console/sign-in-requests', { body: { email } }));
      setSent(true);
    } catch (failure) {
      setError(failure);
    } finally {
      setBusy(false);
    }
  };

  return (
    <section class="narrow">
      <PageTitle text={t('sign_in.title')} />
      {sent ? (
        <>
          <p role="status">{t('sign_in.sent')}</p>
          <button type="button" onClick={() => setSent(false)}>
            {t('sign_in.again')}
          </button>
        </>
      ) : (
        <form onSubmit={(e) => void submit(e)}>
          <label for="sign-in-email">{t('sign_in.email')}</label>
          <input
            id="sign-in-email"
            type="email"
            autocomplete="email"
            required
            value={email}
            onInput={(e) => setEmail(e.currentTarget.value)}
          />
          <button type="submit" disabled={busy}>
            {t('sign_in.submit')}
          </button>
          {error !== null && <ErrorLine error={error} missing />}
        </form>
      )}
    </section>
  );
}
