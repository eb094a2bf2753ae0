/**
 * Sets `key` on `target` as an own field, whatever the key. Assigning `target['__proto__'] = value` would call the
 * prototype's setter instead: `value` would become the prototype, and its fields would answer for fields `target`
 * lacks (a reply item's `label`). A key read from data is data.
 */
export function setOwn(target: Record<string, unknown>, key: string, value: unknown): void {
  if (key === '__proto__') Object.defineProperty(target, key, { value, enumerable: true, writable: true, configurable: true });
  else target[key] = value;
}
