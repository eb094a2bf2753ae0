/** Codes shorter than this are not searched for: replacing every "ab" would garble a report, and such a code is no secret. */
const MIN_SECRET_LENGTH = 4;

export const SECRET_MASK = '<agent code>';

/** Whether `text` holds the agent code (a service or proxy may echo request headers back). */
export const holdsSecret = (text: string, secret: string): boolean => secret.length >= MIN_SECRET_LENGTH && text.includes(secret);

/** `text` with every occurrence of the agent code masked. */
export const maskSecret = (text: string, secret: string): string => (holdsSecret(text, secret) ? text.replaceAll(secret, SECRET_MASK) : text);
