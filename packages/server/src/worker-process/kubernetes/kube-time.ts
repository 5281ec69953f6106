/**
 * A time read from a Kubernetes object, in milliseconds since the epoch; undefined when it is
 * absent or unreadable. The client deserializes the API's times to `Date`s; a string (an object
 * not read through its serializer) is parsed as RFC 3339.
 */
export function kubeTime(value: Date | string | null | undefined): number | undefined {
  if (value === null || value === undefined) return undefined;
  const ms = value instanceof Date ? value.getTime() : Date.parse(value);
  return Number.isFinite(ms) ? ms : undefined;
}
