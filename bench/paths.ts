import { fileURLToPath } from 'node:url';

// compiled to bench/.build/: the package root is two folders up
export const ROOT = fileURLToPath(new URL('../../', import.meta.url));
export const CLI = fileURLToPath(new URL('../../dist/cli/main.js', import.meta.url));
export const ZERO_SERVER = fileURLToPath(new URL('./servers/zero.js', import.meta.url));
export const UNDICI_LOOP = fileURLToPath(new URL('./peers/undici-loop.js', import.meta.url));
export const DIST_INDEX = new URL('../../dist/index.js', import.meta.url).href;
/**
 * The agent code every benchmark run sends. It must occur nowhere in the data or the replies: a reply that holds
 * it takes the masking path meant for a service that echoes its code back (the body masked and parsed again), which
 * `bench` did when the dataset's tag was `bench` too.
 */
export const AGENT_CODE = 'c0de-7f3a91';
