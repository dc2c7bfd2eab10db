// Answer reuse at the HTTP edge, for every cached answer (GET /api/tickets, /api/tickets/stats,
// /api/notifications): this helper owns the key (http/answer-cache.ts answerKey, from the
// validated request values), the version (db/answer-versions.ts, raised by triggers with every
// change), the bytes (the route's own response serializer, so a held answer and a fresh one are
// the same) and the reuse (AnswerCache). Services return plain data and know nothing of it.
import type { FastifyReply } from 'fastify';
import type { Kysely } from 'kysely';
import { answerVersion, type AnswerScope } from '../db/answer-versions.js';
import type { Database } from '../db/schema.js';
import { AnswerCache, answerKey } from './answer-cache.js';

/** What a route's build step returns: the payload its response schema describes, and until when it holds. */
export interface FreshAnswer<P = unknown> {
  payload: P;
  /** Epoch ms from which the answer is out of date whatever the version (an SLA status due to move). */
  validUntil?: number;
}

export interface ReusedRequest {
  /** Which answer of the scope (list, stats). */
  kind: string;
  userId: number;
  /** The validated request values the answer depends on (filters, page); {} for none. */
  values: object;
}

/** Writes a payload as the route's 200 answer; by default the route's own response serializer. */
export type AnswerSerializer<P = unknown> = (reply: FastifyReply, payload: P) => string;

const routeSerializer: AnswerSerializer = (reply, payload) => String(reply.serialize(payload));

export class AnswerReuse<P = unknown> {
  private readonly cache: AnswerCache<string>;

  /**
   * maxBytes 0: nothing is kept, every answer is built. `serialize` must write the bytes the
   * route's 200 schema describes (notifications/list-json.ts, held to them by its test).
   */
  constructor(
    private readonly db: Kysely<Database>,
    private readonly scope: AnswerScope,
    maxBytes: number,
    private readonly serialize: AnswerSerializer<P> = routeSerializer,
  ) {
    this.cache = new AnswerCache<string>(maxBytes);
  }

  /**
   * For the route's `config`: while answers are kept, the auth hook reads the caller's version with
   * the token (one statement instead of two); with the cache off no version is read at all.
   */
  get routeConfig(): { answerScope?: AnswerScope } {
    return this.cache.enabled ? { answerScope: this.scope } : {};
  }

  /** Sends the held answer while the user's version of the scope is unchanged, else the one `build` makes (kept). */
  async send(
    reply: FastifyReply,
    request: ReusedRequest,
    build: (now: number) => Promise<FreshAnswer<P>>,
  ): Promise<FastifyReply> {
    const req = reply.request;
    // The version the auth hook read with the token, when it is this scope's and this user's.
    const known =
      req.answerVersion !== null &&
      req.routeOptions.config.answerScope === this.scope &&
      req.user?.id === request.userId
        ? req.answerVersion
        : undefined;
    const body = await this.cache.answer(
      answerKey(request.kind, request.userId, request.values),
      async () => known ?? answerVersion(this.db, request.userId, this.scope),
      async (now) => {
        const { payload, validUntil } = await build(now);
        return { body: Buffer.from(this.serialize(reply, payload)), validUntil };
      },
    );
    return reply.type('application/json; charset=utf-8').send(body);
  }

  get size(): { entries: number; bytes: number } {
    return this.cache.size;
  }
}
