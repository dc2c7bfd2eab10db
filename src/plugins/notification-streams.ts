// Live notifications (modules/notifications/live/): the open streams of this instance and the
// change signals feeding them (LISTEN on PostgreSQL, a poll of the versions on SQLite). Signals
// start when the app is ready; on close the streams end first (preClose, so the server's close is
// not held up by connections that never finish by themselves and every client reconnects,
// elsewhere if this instance is going away), then the signal connection.
import fp from 'fastify-plugin';
import { openNotificationStreams } from '../http/metrics.js';
import { PostgresSignals, SqlitePoll, type ChangeSignals } from '../modules/notifications/live/signals.js';
import { NotificationStreams } from '../modules/notifications/live/streams.js';

declare module 'fastify' {
  interface FastifyInstance {
    notificationStreams: NotificationStreams;
  }
}

export default fp(
  async (app) => {
    const { deps } = app;
    const streams = new NotificationStreams(deps.db, {
      perUser: deps.config.NOTIFICATION_STREAMS_PER_USER,
      heartbeatMs: deps.config.NOTIFICATION_STREAM_HEARTBEAT_SECONDS * 1000,
      log: app.log,
      onCount: (delta) => openNotificationStreams.inc(delta),
    });
    app.decorate('notificationStreams', streams);
    const pool = deps.database.pool;
    const signals: ChangeSignals = pool
      ? new PostgresSignals(pool.options, streams, app.log)
      : new SqlitePoll(deps.db, streams, deps.config.NOTIFICATION_STREAM_POLL_MS, app.log);
    app.addHook('onReady', async () => signals.start());
    app.addHook('preClose', (done) => {
      streams.closeAll();
      done();
    });
    app.addHook('onClose', async () => signals.stop());
  },
  { name: 'notification-streams', dependencies: ['deps'] },
);
