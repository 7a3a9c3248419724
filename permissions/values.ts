/**
 * Values Pulumi's engine puts in place of what it does not know yet, shared by the provider (which
 * leaves them out of validation) and the policy packs (which leave them undecided).
 */

/** The placeholder a dynamic provider sees for a value not known during preview. */
export const UNKNOWN = "04da6b54-80e4-46f7-96ec-b56ff0331ba9";

/**
 * Pulumi's placeholders for values not known during preview (one per type, as the engine sends
 * them; the string one is also what dynamic providers see).
 */
export const UNKNOWN_SENTINELS: readonly string[] = Object.freeze([
  "1c4a061d-8072-4f0a-a4cb-0ff528b18fe7", // boolean
  "3eeb2bf0-c639-47a8-9e75-3b44932eb421", // number
  UNKNOWN, // string
  "6a19a0b0-7e62-4c92-b797-7f8e31da9cc2", // array
  "030794c1-ac77-496b-92df-f27374a8bd58", // asset
  "e48ece36-62e2-4504-bad9-02848725956a", // archive
  "dd056dcd-154b-4c76-9bd3-c8f88648b5ff", // object
]);

/** Whether a value is not known yet (a placeholder of the engine's). Values inside arrays are looked at by the caller. */
export function isUnknownValue(value: unknown): boolean {
  return typeof value === "string" && UNKNOWN_SENTINELS.includes(value);
}
