// Documents staff upload for the assistant to read: upload (multipart), list, show, the passages
// read from one, rename/deactivate/activate, delete. Staff only (admins today); members get 403.
import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox';
import type { FastifyPluginAsync } from 'fastify';
import { ValidationError } from '../../core/errors.js';
import { t } from '../../core/i18n.js';
import { currentUser } from '../../http/auth.js';
import { requestLocale } from '../../http/i18n.js';
import { MULTIPART_BODY } from '../../http/openapi-document.js';
import { DocumentIndex } from './document-index.js';
import { fileView, passageView } from './presenter.js';
import * as s from './schemas.js';
import * as service from './service.js';
import { readDocumentUpload, registerDocumentUploads } from './upload.js';
import './messages.js';

const STAFF = { auth: 'staff', validationForm: 'general' } as const;

const routes: FastifyPluginAsync = async (plugin) => {
  const app = plugin.withTypeProvider<TypeBoxTypeProvider>();
  const { deps } = app;
  await registerDocumentUploads(app);
  const index = new DocumentIndex(deps.db, app.knowledge, app.knowledgeDocuments);
  const logError = (error: unknown) => app.log.error({ err: error }, 'uploaded documents: reading or indexing failed');
  const files = service.kbFileDeps(deps.db, index, logError);
  // Documents read before this start are in the assistant before the server listens.
  app.addHook('onReady', async () => {
    await index.refresh();
    if (deps.startWorkers) index.start(logError);
  });
  app.addHook('onClose', async () => {
    index.stop();
    await service.settled(files);
  });

  app.post(
    '/admin/kb/files',
    {
      schema: {
        operationId: 'uploadKbFile',
        summary: 'Upload a document for the assistant to read (PDF, DOCX, TXT, Markdown; under 20 MB)',
        description:
          'multipart/form-data: the document in the part named file, optionally title and lang. Answered at once with status processing (202); ' +
          'the text is read in a worker thread (time, memory, page and text limits) and the file becomes ready ' +
          '(its passages cited by the chat with the title and page or heading) or failed with the reason. ' +
          'The same bytes uploaded again are the same file (SHA-256): 200 with it unchanged, or, when it had ' +
          'failed, read again (202). A second file part or an oversized form is 413.',
        tags: s.tags,
        consumes: ['multipart/form-data'],
        body: s.UploadBody,
        [MULTIPART_BODY]: s.UploadForm,
        response: s.responses.upload,
      },
      config: STAFF,
      preValidation: readDocumentUpload,
    },
    async (req, reply) => {
      const upload = req.kbUpload;
      if (!upload?.file) throw new ValidationError(upload?.errors ?? {});
      const { file, reading } = await service.upload(files, currentUser(req), { ...upload.file, ...req.body });
      const locale = requestLocale(req);
      return reply.code(reading ? 202 : 200).send({
        success: true,
        message: t(locale, reading ? 'kb_files.accepted' : 'kb_files.already_uploaded'),
        data: fileView(file, locale),
      });
    },
  );

  app.get(
    '/admin/kb/files',
    {
      schema: {
        operationId: 'listKbFiles',
        summary: 'Uploaded documents, newest first',
        description: 'Every uploaded document with its status, paginated (data, meta); status filters.',
        tags: s.tags,
        querystring: s.ListQuery,
        response: s.responses.list,
      },
      config: STAFF,
    },
    async (req) => {
      const { status, page = 1, per_page: perPage = 20 } = req.query;
      const { rows, meta } = await service.list(files, { status, page, perPage });
      return { success: true, data: rows.map((f) => fileView(f, requestLocale(req))), meta };
    },
  );

  app.get(
    '/admin/kb/files/:id',
    {
      schema: {
        operationId: 'showKbFile',
        summary: 'One uploaded document',
        description: 'Its status (poll this after an upload), the failure reason, page and passage counts.',
        tags: s.tags,
        params: s.FileIdParams,
        response: s.responses.show,
      },
      config: STAFF,
    },
    async (req) => ({ success: true, data: fileView(await service.show(files, req.params.id), requestLocale(req)) }),
  );

  app.get(
    '/admin/kb/files/:id/passages',
    {
      schema: {
        operationId: 'listKbFilePassages',
        summary: 'The passages read from one document',
        description: 'In order, each with its page (PDF) or heading and the id chat sources carry; empty until ready.',
        tags: s.tags,
        params: s.FileIdParams,
        response: s.responses.passages,
      },
      config: STAFF,
    },
    async (req) => ({
      success: true,
      data: (await service.passages(files, req.params.id)).map((p) => passageView(req.params.id, p)),
    }),
  );

  app.put(
    '/admin/kb/files/:id',
    {
      schema: {
        operationId: 'updateKbFile',
        summary: 'Rename, deactivate or activate a document',
        description:
          'active false takes its passages out of the assistant (this instance before the answer, the others ' +
          'within 2 s); true puts them back once ready. The same body again changes nothing but updated_at.',
        tags: s.tags,
        params: s.FileIdParams,
        body: s.UpdateBody,
        response: s.responses.update,
      },
      config: STAFF,
    },
    async (req) => {
      const file = await service.update(files, req.params.id, req.body);
      const locale = requestLocale(req);
      return { success: true, message: t(locale, 'kb_files.updated'), data: fileView(file, locale) };
    },
  );

  app.delete(
    '/admin/kb/files/:id',
    {
      schema: {
        operationId: 'deleteKbFile',
        summary: 'Delete a document and its passages',
        description:
          'Its passages leave the assistant (this instance before the answer, the others within 2 s). Again: 404.',
        tags: s.tags,
        params: s.FileIdParams,
        response: s.responses.remove,
      },
      config: STAFF,
    },
    async (req) => {
      await service.remove(files, req.params.id);
      return { success: true, message: t(requestLocale(req), 'kb_files.deleted') };
    },
  );
};

export default routes;
