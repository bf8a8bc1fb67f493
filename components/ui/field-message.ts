/**
 * The server names the field it refuses ("name: a Source named … already exists") for API
 * callers; under the field's own label that prefix is noise.
 */
export function withoutFieldPrefix(message: string): string {
  const m = /^[A-Za-z][\w.-]*: (.+)$/s.exec(message);
  if (!m?.[1]) return message;
  return m[1].charAt(0).toUpperCase() + m[1].slice(1);
}
