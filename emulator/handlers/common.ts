/**
 * What every handler shares: the call it receives, the reply it may return, and lenient zod
 * field types for the wire (the product accepts numbers and booleans sent as strings).
 */
import { z } from "zod";
import type { OperationName } from "../../permissions";
import type { Caller } from "../auth";
import { InvalidRequest } from "../errors";
import { definedOnly, PRODUCT_ONLY_CLIENT_PERMISSIONS, type ProductClientPermissions } from "../models/common";
import type { Store } from "../store";
import type { ApiNames } from "../vocabulary";

/** One authenticated call, as a handler sees it. */
export interface Call {
  readonly operation: OperationName;
  /** The JSON body (for multipart calls, the form's text fields). */
  readonly body: Record<string, unknown>;
  readonly query: Record<string, unknown>;
  /** The uploaded `file_content` of a multipart call. */
  readonly fileContent?: Buffer;
  readonly store: Store;
  readonly caller: Caller;
  /** The address clients reach the emulator at, for URLs it hands out. */
  readonly baseUrl: string;
  /**
   * Whether records also carry the fields the real product is known to send beyond the spec
   * (observed mode, see fields.ts); false: exactly the documented fields.
   */
  readonly observedFields: boolean;
  /**
   * The vocabulary of the wire. The body a handler sees and the answer it returns use the spec's
   * names either way (the server translates); a handler asks only for what differs beyond names:
   * the product's answer shapes, its extra fields and its operations.
   */
  readonly apiNames: ApiNames;
}

/** A reply other than a 200 JSON body (another status, no body, or another content type). */
export class Reply {
  constructor(
    readonly status: number,
    readonly body?: unknown,
    readonly contentType?: string,
  ) {}
}

/** A handler: parse the call, let the store act, serialise the result (a JSON body, or a {@link Reply}). */
export type Handler = (call: Call) => unknown;

/** A boolean, also as the strings `true`/`false` or `1`/`0`. */
export const bool = z.union([z.boolean(), z.enum(["true", "false", "True", "False", "1", "0"]).transform((v) => v === "true" || v === "True" || v === "1")]);

/** The client permissions of a staging or casting config, as create and update requests give them. */
export const clientPermissionInputs = {
  allow_ws_audio: bool.optional(),
  allow_ws_uploads: bool.optional(),
  allow_ws_downloads: bool.optional(),
  allow_ws_clipboard_down: bool.optional(),
  allow_ws_clipboard_up: bool.optional(),
  allow_ws_microphone: bool.optional(),
};

/** The product-only client permissions, as product-mode create and update requests give them. */
export const productClientPermissionInputs = {
  allow_kasm_gamepad: bool.optional(),
  allow_kasm_webcam: bool.optional(),
  allow_kasm_printing: bool.optional(),
};

/**
 * The fields a product-mode create stores: the product-only client permissions off unless the
 * request sets them. Configs created in spec mode do not carry them.
 */
export function withProductDefaults<T extends object>(fields: T): T & ProductClientPermissions {
  const off = Object.fromEntries(PRODUCT_ONLY_CLIENT_PERMISSIONS.map((name) => [name, false]));
  return { ...off, ...definedOnly(fields) } as T & ProductClientPermissions;
}

/** An integer, also as a string of digits. */
export const int = z.union([
  z.number().int(),
  z
    .string()
    .regex(/^-?\d+$/)
    .transform(Number),
]);

/** A number, also as text (digits with an optional fraction), as Python's `float()` reads it. */
export const decimal = z.union([
  z.number(),
  z
    .string()
    .regex(/^-?\d+(\.\d+)?$/)
    .transform(Number),
]);

/** A string that may be null. */
export const text = z.string().nullable();

/** An identifier: any string; the store decides whether it names something. */
export const id = z.string();

/**
 * Parse `value` with `schema`, or throw 400 naming the offending field and what was expected.
 * `where` is the field's name on the wire (such as `target_user`).
 */
export function parse<S extends z.ZodType>(schema: S, value: unknown, where: string): z.infer<S> {
  // An absent object (such as a missing `target_user`) reads as an empty one, so that the store
  // answers with its "missing parameters" error rather than a type error.
  const result = schema.safeParse(value === undefined && schema instanceof z.ZodObject ? {} : value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const path = [where, ...issue.path.map(String)].filter(Boolean).join(".");
  throw new InvalidRequest(`Invalid Request: ${path}: ${issue.message}`);
}
