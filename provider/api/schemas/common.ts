/**
 * Building blocks of the response schemas, with the product's serialisation quirks absorbed in one
 * place so that the area schemas read like the spec's field tables:
 *
 * - ids come as 32-character hex or as hyphenated UUIDs (notably `user_id` in some `get_users`
 *   answers): {@link Id} normalises both to lowercase hex without hyphens (the permission catalogue's normaliser);
 * - an unset value sometimes comes as the string `"None"` (Python's `str(None)`): {@link nullable}
 *   reads it as `null`;
 * - numbers sometimes come as strings (`"5"`): {@link Int} and {@link Num} accept both;
 * - booleans sometimes come as `"true"`/`"false"`: {@link Bool} accepts both.
 *
 * Objects use zod's default: unknown extra fields are dropped, so that a new field of a later
 * release breaks nothing, while the fields we declare are checked.
 */
import { z } from "zod";
import { canonicalId, KASM_ID_PATTERN, sameId } from "../../../permissions/planned-calls";
import { toCamelCase, type CamelCase } from "../records";

/**
 * A Kasm id on the wire, both ways: any spelling is accepted and becomes the canonical form, 32
 * lowercase hex characters (the permission catalogue's pattern and normaliser). The client parses answers and
 * outgoing ids with it.
 */
export const Id = z.preprocess(
  (value) => (typeof value === "string" ? canonicalId(value) : value),
  z.string().regex(KASM_ID_PATTERN, "expected an id of 32 hexadecimal characters (or a hyphenated UUID)"),
);

/** The canonical form of a Kasm id (the permission catalogue's one normaliser, by its name in this module). */
export { canonicalId as normaliseId, sameId };

/** `schema`, or `null`, where the string `"None"` also means `null`. */
export function nullable<T extends z.ZodType>(schema: T) {
  return z.preprocess((value) => (value === "None" ? null : value), schema.nullable());
}

function numberFromString(value: unknown): unknown {
  return typeof value === "string" && value.trim() !== "" && Number.isFinite(Number(value)) ? Number(value) : value;
}

/** A whole number, also when sent as a string. */
export const Int = z.preprocess(numberFromString, z.number().int());

/** A number, also when sent as a string. */
export const Num = z.preprocess(numberFromString, z.number());

/** A boolean, also when sent as `"true"` or `"false"` (any case). */
export const Bool = z.preprocess((value) => {
  if (typeof value !== "string") return value;
  const lower = value.toLowerCase();
  return lower === "true" ? true : lower === "false" ? false : value;
}, z.boolean());

/** A string or null (`"None"` read as null). */
export const NullableString = nullable(z.string());

/** An id or null (`"None"` read as null). */
export const NullableId = nullable(Id);

/** A timestamp as the API writes it, `YYYY-MM-DD HH:MM:SS.ffffff` (kept as text: it carries no time zone). */
export const Timestamp = z.string();

/** A JSON object whose fields the spec does not list. */
export const AnyObject = z.record(z.string(), z.unknown());

/** The answer of operations with nothing to return: `{}` (any fields tolerated). */
export const Empty = z.object({});

/** Paging, sorting and filtering parameters of list operations. */
export const ListParams = z.object({
  /** Zero-based page number. */
  page: z.number().int().min(0),
  page_size: z.number().int().min(1),
  sort_by: z.string(),
  sort_direction: z.enum(["asc", "desc"]),
  filters: z.array(z.object({ id: z.string(), value: z.unknown() })),
});
/** Paging, sorting and filtering parameters of list operations. */
export type ListParams = z.infer<typeof ListParams>;

/**
 * The session permissions a staging config and a casting config both carry (`allow_ws_audio`,
 * ...): each may be unset, `null` or `"None"` in an answer.
 */
export const SessionPermissions = {
  allow_ws_audio: nullable(Bool).optional().describe("Whether the sessions may play audio."),
  allow_ws_uploads: nullable(Bool).optional().describe("Whether files may be uploaded into the sessions."),
  allow_ws_downloads: nullable(Bool).optional().describe("Whether files may be downloaded from the sessions."),
  allow_ws_clipboard_down: nullable(Bool).optional().describe("Whether text may be copied from a session to the local clipboard."),
  allow_ws_clipboard_up: nullable(Bool).optional().describe("Whether text may be pasted from the local clipboard into a session."),
  allow_ws_microphone: nullable(Bool).optional().describe("Whether the sessions may use the microphone."),
};

/** The session permissions by the names a program declares them (`allowWsAudio`, ...), in the records' order. */
export const SESSION_PERMISSION_NAMES = Object.keys(SessionPermissions).map(toCamelCase) as CamelCase<keyof typeof SessionPermissions>[];
