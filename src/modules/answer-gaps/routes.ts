// Feedback on one assistant answer (members, on their own answers) and the questions nobody
// answered (staff): the groups, and a decision on one.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { msg, notFound } from '../../core/errors.js';
import { digitsId } from '../../core/ids.js';
import { t } from '../../core/i18n.js';
import { currentUser } from '../../http/auth.js';
import { requestLocale } from '../../http/i18n.js';
import { gapView } from './presenter.js';
import * as s from './schemas.js';
import * as service from './service.js';
import './messages.js';

const STAFF = { auth: 'staff', validationForm: 'general' } as const;

const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const gapDeps: service.GapDeps = { db: app.deps.db, knowledge: app.knowledge };

  app.post(
    '/assistant/messages/:id/feedback',
    {
      schema: {
        operationId: 'rateAssistantAnswer',
        summary: 'Thumbs up or down on one of your assistant answers (extension)',
        description:
          'Extension of the assistant API. The id is an assistant message of one of your conversations (GET /api/assistant/conversations/{id} lists them). ' +
          "One rating per message: a second call replaces the first (rating and reason). Another user's message, a user message or an unknown id: 404 {success:false, message}. " +
          'Answers rated down join the questions staff read at GET /api/admin/assistant/gaps.',
        tags: ['assistant'],
        params: s.MessageParams,
        body: s.FeedbackBody,
        response: s.responses.feedback,
      },
      config: { auth: 'user', validationForm: 'assistant' },
    },
    async (req) => {
      const id = digitsId(req.params.id);
      if (id === undefined) throw notFound(msg('assistant.message.not_found'));
      const saved = await service.rate(gapDeps, currentUser(req), id, req.body);
      return {
        success: true,
        message: t(requestLocale(req), 'assistant.feedback.thanks'),
        data: { ...saved, rating: saved.rating as 'up' | 'down' },
      };
    },
  );

  app.get(
    '/admin/assistant/gaps',
    {
      schema: {
        operationId: 'listAssistantGaps',
        summary: 'The questions the assistant could not answer, grouped (staff)',
        description:
          'Questions of members (not staff) that the assistant answered without a source ("I could not find a good answer") or whose answer its asker rated down, ' +
          "grouped by what they ask with the assistant's own reading of a message (fifty phrasings of one missing thing are one group), most asked first, " +
          'with counts, first and last time asked, language, other phrasings, reasons and the passages they came closest to. ' +
          'A decision (PUT .../gaps/{id}) covers the questions asked until then: asked again afterwards, the group is open again.',
        tags: ['assistant-staff'],
        querystring: s.GapsQuery,
        response: s.responses.gaps,
      },
      config: STAFF,
    },
    async (req) => {
      const { state, lang, days = 90, limit = 50 } = req.query;
      const gaps = await service.gaps(gapDeps, { state, lang, days });
      return { success: true, data: gaps.slice(0, limit).map((gap) => gapView(app.knowledge, gap)) };
    },
  );

  app.put(
    '/admin/assistant/gaps/:id',
    {
      schema: {
        operationId: 'decideAssistantGap',
        summary: 'Dismiss a group of unanswered questions, or mark it answered by an article (staff)',
        description:
          'The id is a group id from the list (of the last 365 days). answered needs article_key, the key of ' +
          'an article the assistant knows (422 otherwise). The same call again changes only decided_at.',
        tags: ['assistant-staff'],
        params: s.GapParams,
        body: s.DecisionBody,
        response: s.responses.decide,
      },
      config: STAFF,
    },
    async (req) => {
      const locale = requestLocale(req);
      const gap = await service.decide(gapDeps, currentUser(req), req.params.id, req.body, 365);
      return {
        success: true,
        message: t(locale, gap.state === 'answered' ? 'assistant.gap.answered' : 'assistant.gap.dismissed'),
        data: gapView(app.knowledge, gap),
      };
    },
  );
};

export default routes;
