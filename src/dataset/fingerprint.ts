import { createHash, type Hash } from 'node:crypto';
import type { Stats } from 'node:fs';

/** Bytes per block whose sha256 the check pass keeps, so the asking pass can compare as it reads. */
export const BLOCK_BYTES = 64 * 1024;

/** What the check pass read: enough to tell, block by block, whether the asking pass reads the same bytes. */
export interface Fingerprint {
  sha256: string;
  bytes: number;
  /** The sha256 of each BLOCK_BYTES block, one after the other (32 bytes each). */
  blocks: Buffer;
  /** The file's size, modification time and inode when the check pass began. */
  stat: FileStamp;
}

export interface FileStamp {
  size: number;
  mtimeMs: number;
  ino: number;
  dev: number;
}

export const stampOf = (s: Stats): FileStamp => ({ size: s.size, mtimeMs: s.mtimeMs, ino: s.ino, dev: s.dev });

/** How two stamps differ, in words ("size 812 → 640 bytes"); undefined when they do not. */
export function stampDifference(was: FileStamp, now: FileStamp): string | undefined {
  const out: string[] = [];
  if (was.size !== now.size) out.push(`size ${was.size} → ${now.size} bytes`);
  if (was.mtimeMs !== now.mtimeMs) out.push(`modified ${new Date(now.mtimeMs).toISOString()}`);
  if (was.ino !== now.ino || was.dev !== now.dev) out.push('replaced by another file');
  return out.length === 0 ? undefined : out.join(', ');
}

/** Hashes the bytes of the check pass as they pass: the whole file and each block. */
export class FingerprintRecorder {
  #whole = createHash('sha256');
  #block: Hash = createHash('sha256');
  #inBlock = 0;
  #bytes = 0;
  #digests: Buffer[] = [];

  update(chunk: Buffer): void {
    this.#whole.update(chunk);
    this.#bytes += chunk.length;
    for (let at = 0; at < chunk.length; ) {
      const take = Math.min(BLOCK_BYTES - this.#inBlock, chunk.length - at);
      this.#block.update(chunk.subarray(at, at + take));
      this.#inBlock += take;
      at += take;
      if (this.#inBlock === BLOCK_BYTES) this.#nextBlock();
    }
  }

  get bytes(): number {
    return this.#bytes;
  }

  finish(stat: FileStamp): Fingerprint {
    if (this.#inBlock > 0) this.#nextBlock();
    return { sha256: this.#whole.digest('hex'), bytes: this.#bytes, blocks: Buffer.concat(this.#digests), stat };
  }

  #nextBlock(): void {
    this.#digests.push(this.#block.digest());
    this.#block = createHash('sha256');
    this.#inBlock = 0;
  }
}

/**
 * The bytes of the asking pass, each block handed on only once its sha256 equals the check pass's, so no
 * question is sent from bytes that were not checked. `changed` makes the error for the first difference.
 */
export async function* verified(chunks: AsyncIterable<Buffer>, checked: Fingerprint, changed: (what: string) => Error): AsyncGenerator<Buffer> {
  let held: Buffer[] = [];
  let heldBytes = 0;
  let block = 0;
  let total = 0;
  let hash = createHash('sha256');
  const check = (): Buffer => {
    const digest = hash.digest();
    const from = block * BLOCK_BYTES;
    if (!digest.equals(checked.blocks.subarray(block * 32, block * 32 + 32))) {
      throw changed(`bytes ${from}-${from + heldBytes - 1} differ from what was checked`);
    }
    const bytes = held.length === 1 ? held[0]! : Buffer.concat(held);
    held = [];
    heldBytes = 0;
    block++;
    hash = createHash('sha256');
    return bytes;
  };
  for await (const chunk of chunks) {
    for (let at = 0; at < chunk.length; ) {
      const take = Math.min(BLOCK_BYTES - heldBytes, chunk.length - at);
      const piece = chunk.subarray(at, at + take);
      held.push(piece);
      hash.update(piece);
      heldBytes += take;
      total += take;
      at += take;
      if (total > checked.bytes) throw changed(`it now holds more than the ${checked.bytes} bytes checked`);
      if (heldBytes === BLOCK_BYTES) yield check();
    }
  }
  if (heldBytes > 0) yield check();
  if (total < checked.bytes) throw changed(`it now holds ${total} bytes, ${checked.bytes} were checked`);
}
