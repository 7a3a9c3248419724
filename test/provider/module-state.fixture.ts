/**
 * The module-state test's own example (module-state.test.ts): three kinds of module-level state it
 * must find, and two read-only tables it must not.
 */
export const cache = new Map<string, number>();
export let counter = 0;
export const pending: string[] = [];
export const TABLE: ReadonlyMap<string, string> = new Map([["a", "b"]]);
export const NAMES = ["a", "b"] as const;

/** Uses each, so that nothing reads as unused. */
export function touch(): number {
  counter += cache.size + pending.length + TABLE.size + NAMES.length;
  return counter;
}
