export { mulberry32 } from '../../util/random.js';

/** A 32-bit seed for one named stream (FNV-1a of the name, mixed with the run's seed). */
export function streamSeed(seed: number, name: string): number {
  let h = (0x811c9dc5 ^ seed) >>> 0;
  for (let i = 0; i < name.length; i++) {
    h ^= name.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}
