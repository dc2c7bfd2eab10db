import type { Generated } from 'kysely';

export interface KbFilesTable {
  id: Generated<number>;
  title: string;
  file_name: string;
  /** pdf, docx, txt or md. */
  kind: string;
  file_size: number;
  /** Hex SHA-256 of the bytes; unique: the same document uploaded again is this row. */
  sha256: string;
  /** en or fa; null until read when the upload did not name it. */
  lang: string | null;
  /** processing, ready or failed. */
  status: string;
  failure_code: string | null;
  /** JSON object: the values of the failure's message. */
  failure_params: string | null;
  /** 1: its passages are in the assistant's index once ready; 0: deactivated. */
  active: Generated<number>;
  page_count: number | null;
  passage_count: Generated<number>;
  uploaded_by: number | null;
  created_at: string;
  updated_at: string;
}

export interface KbFilePassagesTable {
  id: Generated<number>;
  file_id: number;
  position: number;
  page: number | null;
  heading: string | null;
  body: string;
}

export interface KbFileTables {
  kb_files: KbFilesTable;
  kb_file_passages: KbFilePassagesTable;
}
