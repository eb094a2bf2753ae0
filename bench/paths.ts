import { fileURLToPath } from 'node:url';

// compiled to bench/.build/: the package root is two folders up
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
export const ZERO_SERVER = fileURLToPath(new URL('./servers/zero.js', import.meta.url));
export const UNDICI_LOOP = fileURLToPath(new URL('./peers/undici-loop.js', import.meta.url));
export const DIST_INDEX = new URL('../../dist/index.js', import.meta.url).href;
