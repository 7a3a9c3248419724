/**
 * Kasm ids as the provider, the lookups and the policy packs read them: the one id pattern and
 * the one normaliser outside the emulator (the emulator keeps its own on purpose, so that it
 * models the product independently and the two cannot share a mistake).
 *
 * Kasm writes ids as 32 lowercase hexadecimal digits; some answers (notably `user_id` in
 * `get_users`) and many programs write them as hyphenated UUIDs, and either may be upper case.
 * All of these name the same object.
 *
 * Free of zod: a program's SDK loads this module, and the schema that reads ids on the wire is the
 * client's (`Id`, provider/api/schemas/common.ts), built on this pattern and normaliser.
 */

/** A Kasm id as it may be written: 32 hexadecimal digits, or a hyphenated UUID, in either case. */
export const KASM_ID_PATTERN = /^(?:[0-9a-fA-F]{32}|[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12})$/;

/** What a program reads when an input is not a Kasm id. */
export const KASM_ID_MESSAGE = "must be a Kasm id: 32 hexadecimal digits, or a hyphenated UUID";

/** Whether `value` is a Kasm id in any of its spellings. */
export function isKasmId(value: unknown): value is string {
  return typeof value === "string" && KASM_ID_PATTERN.test(value.trim());
}

/**
 * The canonical form of a Kasm id: 32 lowercase hexadecimal digits, no hyphens. A value that is
 * not an id in any spelling (a username, a reference made up for an object not created yet) comes
 * back unchanged; null and undefined come back as "".
 *
 * @example canonicalId("6E1A5C0C-1F4B-4F6A-9F52-35E1C0A2B3D4") // "6e1a5c0c1f4b4f6a9f5235e1c0a2b3d4"
 */
export function canonicalId(value: unknown): string {
  const text = String(value ?? "");
  const trimmed = text.trim();
  return KASM_ID_PATTERN.test(trimmed) ? trimmed.replace(/-/g, "").toLowerCase() : text;
}

/** Whether two values name the same Kasm object, whatever the spelling of their ids. */
export function sameId(a: unknown, b: unknown): boolean {
  return a != null && b != null && canonicalId(a) === canonicalId(b);
}

/**
 * The resource id of an object named by two others (a membership: user and group; a group's
 * workspace: group and image): their canonical ids, joined by a colon.
 */
export function pairId(first: unknown, second: unknown): string {
  return `${canonicalId(first)}:${canonicalId(second)}`;
}
