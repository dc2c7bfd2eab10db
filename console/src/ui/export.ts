// CSV export of the filtered list: the service streams it; the console fetches it with its
// credential (a cookie alone is not one) and hands it to the browser as a download.
import { authorizedFetch } from '../api/client';
import type { QueueQuery } from '../api/tickets';
import { t } from '../i18n';

/** Starts the download; returns a message for the page when it could not. */
export async function exportCsv(filters: QueueQuery): Promise<string | null> {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filters)) if (value !== undefined) params.set(key, String(value));
  try {
    const response = await authorizedFetch(`/api/admin/tickets/export.csv?${params}`);
    const disposition = response.headers.get('content-disposition') ?? '';
    const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'tickets.csv';
    const url = URL.createObjectURL(await response.blob());
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
    setTimeout(() => URL.revokeObjectURL(url), 60_000);
    return null;
  } catch (error) {
    const status = (error as { status?: number }).status;
    return status === 404 || status === 405
      ? t('error.not_available')
      : t('error.generic', { message: String((error as Error).message) });
  }
}
