import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';
import { basename, dirname, join } from 'node:path';

/**
 * Replaces a file's content atomically: a temporary file created exclusively beside it (never one planted there:
 * O_EXCL, a random name), written, synced, renamed over the file, and the directory synced; a reader sees the old
 * content or the new, never a part. The file keeps its mode.
 */
export async function writeAtomically(path: string, content: Buffer, mode: number): Promise<void> {
  const temp = join(dirname(path), `.${basename(path)}.${randomBytes(8).toString('hex')}.tmp`);
  const handle = await open(temp, 'wx', mode & 0o777);
  try {
    try {
      await handle.writeFile(content);
      await handle.chmod(mode & 0o777);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(temp, path);
  } catch (error) {
    await rm(temp, { force: true });
    throw error;
  }
  const dir = await open(dirname(path), 'r');
  try {
    await dir.sync();
  } catch {
    // a directory some systems cannot sync: the rename is done
  } finally {
    await dir.close();
  }
}
