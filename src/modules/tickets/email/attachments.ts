// A message's files go through the checks of uploads (file-check.ts): an allowed extension,
// content of that type, under the size limit, at most MAX_FILES. A refused file is named in a note
// on the comment, so neither the member nor staff think it arrived.
import { Readable } from 'node:stream';
import { t, type Locale } from '../../../core/i18n.js';
import {
  ALLOWED_TYPES,
  MAX_FILE_BYTES,
  MAX_FILES,
  cleanFileName,
  contentMatchesExtension,
  extensionOf,
} from '../file-check.js';
import type { StoredUpload } from '../service.js';
import type { AttachmentStorage } from '../storage/index.js';
import type { InboundAttachment } from './parse.js';
import './messages.js';

export interface CheckedFiles {
  stored: StoredUpload[];
  /** One line per refused file, in the message's language. */
  notes: string[];
}

export async function keepAttachments(
  storage: AttachmentStorage,
  files: InboundAttachment[],
  locale: Locale,
): Promise<CheckedFiles> {
  const result: CheckedFiles = { stored: [], notes: [] };
  const refuse = (name: string, reason: string) =>
    result.notes.push(t(locale, 'mail.attachment_refused', { name, reason: t(locale, `mail.refused.${reason}`) }));
  try {
    for (const file of files) {
      const name = cleanFileName(file.fileName) || 'attachment';
      const extension = extensionOf(name);
      if (result.stored.length >= MAX_FILES) refuse(name, 'count');
      else if (!ALLOWED_TYPES[extension]) refuse(name, 'type');
      else if (file.content.length >= MAX_FILE_BYTES) refuse(name, 'size');
      else if (file.content.length === 0) refuse(name, 'content');
      else {
        const temp = await storage.writeTemp(Readable.from([file.content]));
        if (!(await contentMatchesExtension(temp.path, extension))) {
          await storage.discardTemp(temp);
          refuse(name, 'content');
          continue;
        }
        const key = await storage.keep(temp);
        result.stored.push({
          storage_key: key,
          file_name: name,
          file_type: ALLOWED_TYPES[extension]!.mime,
          file_size: temp.size,
        });
      }
    }
  } catch (error) {
    await removeKept(storage, result.stored);
    throw error;
  }
  return result;
}

/** Removes files kept for a message whose comment was not written. */
export async function removeKept(storage: AttachmentStorage, stored: StoredUpload[]): Promise<void> {
  await Promise.all(stored.map((f) => storage.remove(f.storage_key).catch(() => undefined)));
}
