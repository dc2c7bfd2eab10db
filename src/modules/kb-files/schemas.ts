// TypeBox schemas of the uploaded documents' admin routes (/api/admin/kb/files).
import { Type } from 'typebox';
import { PageMetaSchema, paginationQuery } from '../../core/pagination.js';
import { errorResponses, IntegerId, NO_NUL, Timestamp } from '../../http/schemas.js';
import type { OpenApiTag } from '../../http/openapi.js';

export const tags = ['knowledge base documents'];

export const FileIdParams = Type.Object({ id: { ...IntegerId, description: 'Id of the uploaded document.' } });

const TITLE_TEXT = 'How the chat cites the document ("Refund policy, page 3"); 1 to 200 characters.';
const Title = Type.String({ minLength: 1, maxLength: 200, pattern: NO_NUL, description: TITLE_TEXT });

/** The form fields of an upload; the file itself is the part named file (see the OpenAPI document). */
export const UploadBody = Type.Object({
  title: Type.Optional({ ...Title, description: `${TITLE_TEXT} Default: the file name without its extension.` }),
  lang: Type.Optional(
    Type.Enum(['en', 'fa'], {
      description:
        'The language of the text. Default: read from the text (fa when a third of its letters are Persian).',
    }),
  ),
});

/** The upload's multipart form in the OpenAPI document: the fields above and the document under file. */
export const UploadForm = {
  type: 'object',
  required: ['file'],
  properties: {
    ...UploadBody.properties,
    file: {
      type: 'string',
      format: 'binary',
      description: 'The document: .pdf, .docx, .txt, .md or .markdown, smaller than 20 MB (at most 20,971,519 bytes).',
    },
  },
};

export const UpdateBody = Type.Object(
  {
    title: Type.Optional(Title),
    active: Type.Optional(
      Type.Boolean({ description: 'false: its passages leave the assistant at once; true: they return once ready.' }),
    ),
  },
  { additionalProperties: false },
);

export const ListQuery = Type.Object({
  status: Type.Optional(Type.Enum(['processing', 'ready', 'failed'], { description: 'Only files in this state.' })),
  ...paginationQuery(20, 100),
});

const KbFile = Type.Object(
  {
    id: Type.Integer(),
    title: Type.String(),
    file_name: Type.String({ description: 'The name the file was uploaded under.' }),
    kind: Type.Enum(['pdf', 'docx', 'txt', 'md']),
    file_size: Type.Integer({ description: 'Bytes.' }),
    sha256: Type.String({ description: 'Hex SHA-256 of the bytes: the same bytes uploaded again are this file.' }),
    lang: Type.Union([Type.Enum(['en', 'fa']), Type.Null()], { description: 'null while processing when not given.' }),
    status: Type.Enum(['processing', 'ready', 'failed'], {
      description: 'processing → ready (its passages are in the assistant) or failed (see failure).',
    }),
    failure: Type.Union(
      [
        Type.Object({
          code: Type.String({
            description:
              'not_pdf, not_docx, encrypted, malformed, too_many_pages, too_much_text, no_text, zip_bomb, encoding, timeout, out_of_memory, worker_failed or interrupted.',
          }),
          message: Type.String({ description: "The reason in the request's language." }),
        }),
        Type.Null(),
      ],
      { description: 'Why the document could not be read; null unless failed.' },
    ),
    active: Type.Boolean({ description: 'false: deactivated, its passages are not in the assistant.' }),
    page_count: Type.Union([Type.Integer(), Type.Null()], { description: 'PDF pages; null for other kinds.' }),
    passage_count: Type.Integer({ description: 'Passages the text was split into (0 until ready).' }),
    uploaded_by: Type.Union([Type.Integer(), Type.Null()]),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'KbFile' },
);

const Passage = Type.Object({
  id: Type.String({ description: 'The id a chat source carries: file-<file id>.<position>.' }),
  position: Type.Integer({ description: 'Order in the document, from 1.' }),
  page: Type.Union([Type.Integer(), Type.Null()], { description: 'PDF page; null for other kinds.' }),
  heading: Type.Union([Type.String(), Type.Null()], { description: 'The heading above the passage, when it has one.' }),
  body: Type.String(),
});

const FileAnswer = Type.Object({ success: Type.Boolean(), message: Type.String(), data: KbFile });

export const responses = {
  upload: {
    200: { ...FileAnswer, description: 'The same bytes were uploaded before: that file, unchanged.' },
    202: { ...FileAnswer, description: 'Stored as processing; its text is read in the background.' },
    ...errorResponses(400, 401, 403, 413, 415, 422, 503),
  },
  list: {
    200: Type.Object({ success: Type.Boolean(), data: Type.Array(KbFile), meta: PageMetaSchema }),
    ...errorResponses(401, 403, 422, 503),
  },
  show: { 200: Type.Object({ success: Type.Boolean(), data: KbFile }), ...errorResponses(401, 403, 404, 422, 503) },
  passages: {
    200: Type.Object({ success: Type.Boolean(), data: Type.Array(Passage) }),
    ...errorResponses(401, 403, 404, 422, 503),
  },
  update: { 200: FileAnswer, ...errorResponses(401, 403, 404, 422, 503) },
  remove: {
    200: Type.Object({ success: Type.Boolean(), message: Type.String() }),
    ...errorResponses(401, 403, 404, 422, 503),
  },
};

/** The documents' tag in the OpenAPI document. */
export const openApiTags: OpenApiTag[] = [
  {
    name: tags[0]!,
    description: 'Documents staff upload (PDF, DOCX, text, Markdown) for the assistant to answer from.',
  },
];
