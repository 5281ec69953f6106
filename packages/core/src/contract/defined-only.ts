/** `T` with each member that may be undefined made optional instead, as an exact optional type reads it. */
export type DefinedOnly<T> = { [K in keyof T as undefined extends T[K] ? never : K]: T[K] } & {
  [K in keyof T as undefined extends T[K] ? K : never]?: Exclude<T[K], undefined>;
};

/**
 * A shallow copy of `value` without its undefined members, for objects whose reader tells an
 * absent member from an undefined one (a schema check before sending, `in`, key listings).
 */
export function definedOnly<T extends object>(value: T): DefinedOnly<T> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(value)) {
    const member = (value as Record<string, unknown>)[key];
    if (member !== undefined) out[key] = member;
  }
  return out as DefinedOnly<T>;
}
