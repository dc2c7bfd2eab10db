// Which storage this instance uses: the disk, or the S3-protocol bucket STORAGE_URL names. Kept apart
// from the interface (index.ts) so that the drivers can import the interface without a cycle.
import type { Config } from '../../../config.js';
import { DiskStorage } from './disk.js';
import { type AttachmentStorage, type StorageLog, attachmentsDir } from './index.js';

/** The storage the configuration names: STORAGE_URL=s3://… or, unset, the disk under DATA_DIR. */
export async function createStorage(config: Config, log?: StorageLog): Promise<AttachmentStorage> {
  if (!config.STORAGE_URL) return new DiskStorage(attachmentsDir(config.DATA_DIR));
  // Loaded only when configured: the SDK adds about a hundred modules to a disk-only start.
  const { S3Storage } = await import('./s3.js');
  return new S3Storage(config, log);
}
