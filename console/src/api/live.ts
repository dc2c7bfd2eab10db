// The staff event stream (Server-Sent Events): a single-use stream token from
// POST /api/admin/stream-tokens, then EventSource on GET /api/admin/stream. Reconnects with a new
// token when the stream drops. Listeners get the event's name and its parsed data.
import { api } from './client';

export type LiveEvent =
  | { type: 'ticket_created'; data: { id: number; tracking_code: string } }
  | { type: 'ticket_updated'; data: { id: number; fields?: string[] } }
  | { type: 'comment_added'; data: { ticket_id: number; comment_id: number; kind: 'member' | 'staff' | 'note' } }
  | {
      type: 'presence';
      data: {
        ticket_id: number;
        viewers: { id: number; first_name: string; last_name: string; state: 'viewing' | 'replying' }[];
      };
    };

const EVENT_NAMES: LiveEvent['type'][] = ['ticket_created', 'ticket_updated', 'comment_added', 'presence'];
const listeners = new Set<(event: LiveEvent) => void>();
let source: EventSource | null = null;
let retry: ReturnType<typeof setTimeout> | undefined;
let unavailable = false;

async function connect(): Promise<void> {
  if (source || unavailable || listeners.size === 0) return;
  const answer = await api.POST('/api/admin/stream-tokens', { body: {} }).catch(() => null);
  if (!answer?.response.ok || !answer.data) {
    // A server without the staff stream: no live updates (pages still load on navigation).
    if (answer?.response.status === 404 || answer?.response.status === 405) unavailable = true;
    else retry = setTimeout(() => void connect(), 5000);
    return;
  }
  const token = (answer.data as { data: { token: string } }).data.token;
  const stream = new EventSource(`/api/admin/stream?stream_token=${encodeURIComponent(token)}`);
  source = stream;
  for (const name of EVENT_NAMES) {
    stream.addEventListener(name, (message) => {
      let data: unknown;
      try {
        data = JSON.parse((message as MessageEvent<string>).data);
      } catch {
        return;
      }
      for (const listener of listeners) listener({ type: name, data } as LiveEvent);
    });
  }
  stream.onerror = () => {
    // The token was single-use: a dropped stream needs a new one.
    stream.close();
    if (source === stream) source = null;
    retry = setTimeout(() => void connect(), 1000);
  };
}

/** Calls listener for every staff event while subscribed; returns the unsubscribe function. */
export function subscribeLive(listener: (event: LiveEvent) => void): () => void {
  listeners.add(listener);
  void connect();
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearTimeout(retry);
      source?.close();
      source = null;
    }
  };
}
