// An uploaded document's public shape, with its failure reason in the request's language.
import { t, type Locale } from '../../core/i18n.js';
import { passageId } from './document-index.js';
import type { DocumentPassage } from './passages.js';
import type { FileRow } from './repository.js';
import './messages.js';

export function fileView(file: FileRow, locale: Locale) {
  const params = file.failure_params ? (JSON.parse(file.failure_params) as Record<string, string | number>) : {};
  return {
    id: file.id,
    title: file.title,
    file_name: file.file_name,
    kind: file.kind as 'pdf' | 'docx' | 'txt' | 'md',
    file_size: file.file_size,
    sha256: file.sha256,
    lang: file.lang as 'en' | 'fa' | null,
    status: file.status as 'processing' | 'ready' | 'failed',
    failure:
      file.status === 'failed' && file.failure_code
        ? { code: file.failure_code, message: t(locale, `kb_files.failure.${file.failure_code}`, params) }
        : null,
    active: file.active === 1,
    page_count: file.page_count,
    passage_count: file.passage_count,
    uploaded_by: file.uploaded_by,
    created_at: file.created_at,
    updated_at: file.updated_at,
  };
}

export function passageView(fileId: number, passage: DocumentPassage) {
  return { id: passageId(fileId, passage.position), ...passage };
}
