// The admin integration API: the platform reports project and investment changes here, and the
// service writes the notifications they call for. Admin token only; exempt from the platform rate
// limit because the platform's own sync is the trusted caller and may send bursts.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync, FastifyReply, FastifyRequest } from 'fastify';
import { registerMessages, t } from '../../core/i18n.js';
import { requestLocale } from '../../http/i18n.js';
import { errorResponses } from '../../http/schemas.js';
import { IntegrationService, type Saved } from './integration.js';
import {
  InvestmentBody,
  InvestmentResult,
  ProjectBody,
  ProjectResult,
  RecordIdParams,
  RevisionRequestBody,
  RevisionRequestResult,
} from './schemas.js';

registerMessages({
  'integration.project_created': { en: 'Project created.', fa: 'پروژه ایجاد شد.' },
  'integration.project_updated': { en: 'Project updated.', fa: 'پروژه به‌روز شد.' },
  'integration.revision_requested': { en: 'Revision requested.', fa: 'درخواست اصلاح ثبت شد.' },
  'integration.investment_created': { en: 'Investment created.', fa: 'سرمایه‌گذاری ایجاد شد.' },
  'integration.investment_updated': { en: 'Investment updated.', fa: 'سرمایه‌گذاری به‌روز شد.' },
});

const tags = ['admin integration'];

/** The answer to a PUT of a mirrored record: 201 and "… created." when it was new, else 200 and "… updated.". */
function savedAnswer<T>(req: FastifyRequest, reply: FastifyReply, kind: 'project' | 'investment', saved: Saved<T>) {
  reply.code(saved.created ? 201 : 200);
  return {
    success: true,
    message: t(requestLocale(req), `integration.${kind}_${saved.created ? 'created' : 'updated'}`),
    data: saved.record,
    notification_ids: saved.notification_ids,
  };
}

const errors = errorResponses(400, 401, 403, 422, 503);

const adminRoutes: FastifyPluginAsync = async (instance) => {
  const app = instance.withTypeProvider<TypeBoxTypeProvider>();
  const integration = new IntegrationService(app.deps);
  const config = { auth: 'admin', validationForm: 'general', rateLimit: false } as const;

  app.put(
    '/admin/projects/:id',
    {
      schema: {
        summary: 'Create or update a project mirrored from the platform (201 created, 200 updated)',
        operationId: 'reportProjectStatus',
        description:
          'A change of status into approved, rejected, under_review or archived (creation included) notifies the owner; the same status again does not.',
        tags,
        params: RecordIdParams,
        body: ProjectBody,
        response: { 200: ProjectResult, 201: ProjectResult, ...errors },
      },
      config,
    },
    async (req, reply) => savedAnswer(req, reply, 'project', await integration.saveProject(req.params.id, req.body)),
  );

  app.post(
    '/admin/projects/:id/revision-requests',
    {
      schema: {
        summary: 'Ask the owner for changes before approval (notifies the owner)',
        operationId: 'requestProjectRevision',
        description: 'Records a revision request for the project and notifies its owner with the message.',
        tags,
        params: RecordIdParams,
        body: RevisionRequestBody,
        response: { 201: RevisionRequestResult, ...errors },
      },
      config,
    },
    async (req, reply) => {
      const saved = await integration.requestRevision(req.params.id, req.body.revision_notes);
      reply.code(201);
      return {
        success: true,
        message: t(requestLocale(req), 'integration.revision_requested'),
        data: saved.record,
        notification_ids: saved.notification_ids,
      };
    },
  );

  app.put(
    '/admin/investments/:id',
    {
      schema: {
        summary: 'Create or update an investment mirrored from the platform (201 created, 200 updated)',
        operationId: 'reportInvestmentStatus',
        description:
          'A change of status into paid, active, completed, cancelled or refunded notifies the investor; into paid also the project owner. The same status again notifies nobody.',
        tags,
        params: RecordIdParams,
        body: InvestmentBody,
        response: { 200: InvestmentResult, 201: InvestmentResult, ...errors },
      },
      config,
    },
    async (req, reply) =>
      savedAnswer(req, reply, 'investment', await integration.saveInvestment(req.params.id, req.body)),
  );
};

export default adminRoutes;
