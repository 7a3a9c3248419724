/**
 * Outgoing ids in the canonical form: the id fields of every request go through the same zod id
 * schema as the answers (`Id`, schemas/common.ts), so that Kasm receives an id in one
 * spelling (32 lowercase hex digits) whatever spelling the program wrote.
 *
 * Which fields hold ids is read from the record and request schemas themselves: a field is an id
 * field when its schema is `Id` (optional, nullable, or a list of them). The transport applies
 * {@link withCanonicalIds} to the parameters of every JSON call, so no operation and no resource
 * converts ids on its own.
 */
import type { z } from "zod";
import * as batch from "./schemas/batch";
import * as casting from "./schemas/casting";
import { Id } from "./schemas/common";
import * as egress from "./schemas/egress";
import * as groups from "./schemas/groups";
import * as images from "./schemas/images";
import * as licenses from "./schemas/licenses";
import * as login from "./schemas/login";
import * as recordings from "./schemas/recordings";
import * as servers from "./schemas/servers";
import * as sessions from "./schemas/sessions";
import * as staging from "./schemas/staging";
import * as users from "./schemas/users";
import * as zones from "./schemas/zones";

/** The definition every zod schema carries (zod's own introspection surface). */
interface SchemaDefinition {
  readonly type: string;
  readonly shape?: Record<string, unknown>;
  readonly innerType?: unknown;
  readonly in?: unknown;
  readonly out?: unknown;
  readonly element?: unknown;
  readonly options?: readonly unknown[];
  readonly left?: unknown;
  readonly right?: unknown;
}

function definitionOf(schema: unknown): SchemaDefinition | undefined {
  return (schema as { _zod?: { def?: SchemaDefinition } } | null)?._zod?.def;
}

/** The schemas directly inside a schema (the fields of an object excepted). */
function innerSchemas(def: SchemaDefinition): unknown[] {
  return [def.innerType, def.in, def.out, def.element, def.left, def.right, ...(def.options ?? [])].filter((s) => s !== undefined);
}

/** Whether a field's schema is the id schema: `Id`, possibly optional, nullable or a list of ids. */
function isIdSchema(schema: unknown): boolean {
  if (schema === Id) return true;
  const def = definitionOf(schema);
  if (!def) return false;
  if (["optional", "nullable", "default", "readonly", "array"].includes(def.type)) return isIdSchema(def.innerType ?? def.element);
  // nullable() of the common schemas is a preprocess step (a pipe) in front of a nullable schema.
  if (def.type === "pipe") return isIdSchema(def.out);
  return false;
}

/**
 * The names of the fields whose schema is `Id`, in any object schema reachable from `schemas`
 * (nested objects, lists, unions, wrappers).
 */
export function idFieldNames(schemas: Iterable<unknown>): Set<string> {
  const names = new Set<string>();
  const seen = new Set<unknown>();
  const visit = (schema: unknown): void => {
    const def = definitionOf(schema);
    if (!def || seen.has(schema)) return;
    seen.add(schema);
    if (def.type === "object" && def.shape) {
      for (const [name, field] of Object.entries(def.shape)) {
        if (isIdSchema(field)) names.add(name);
        visit(field);
      }
    }
    innerSchemas(def).forEach(visit);
  };
  for (const schema of schemas) visit(schema);
  return names;
}

/** The schema modules of the client: every record and request it knows. */
const SCHEMA_MODULES: readonly Record<string, unknown>[] = [
  batch,
  casting,
  egress,
  groups,
  images,
  licenses,
  login,
  recordings,
  servers,
  sessions,
  staging,
  users,
  zones,
];

/** Every field name that holds an id in the API's records and requests (`user_id`, `selected_gateways`, `default_image`, ...). */
export const ID_FIELD_NAMES: ReadonlySet<string> = idFieldNames(SCHEMA_MODULES.flatMap((module) => Object.values(module)));

/** An id through the id schema: the canonical form, or the value as written when it is no id in any spelling (Kasm reports it). */
function canonical(value: unknown): unknown {
  if (typeof value !== "string") return value;
  const parsed = (Id as z.ZodType<string>).safeParse(value);
  return parsed.success ? parsed.data : value;
}

/**
 * A copy of a request's parameters with the value of every id field (at any depth) in the
 * canonical form; other values are kept as they are.
 *
 * @example withCanonicalIds({ target_user: { user_id: "6E1A5C0C-1F4B-4F6A-9F52-35E1C0A2B3D4" } })
 * // { target_user: { user_id: "6e1a5c0c1f4b4f6a9f5235e1c0a2b3d4" } }
 */
export function withCanonicalIds<T>(params: T): T {
  return rewrite(params, false) as T;
}

function rewrite(value: unknown, isIdField: boolean): unknown {
  if (Array.isArray(value)) return value.map((item) => rewrite(item, isIdField));
  if (value && typeof value === "object" && Object.getPrototypeOf(value) === Object.prototype)
    return Object.fromEntries(Object.entries(value).map(([name, field]) => [name, rewrite(field, ID_FIELD_NAMES.has(name))]));
  return isIdField ? canonical(value) : value;
}

/** An id field of a request whose value is no Kasm id in any spelling. */
export interface MalformedId {
  /** Where in the request, such as `target_group.group_id`. */
  readonly path: string;
  /** The field's name, such as `group_id`. */
  readonly field: string;
  /** The value as the caller gave it. */
  readonly value: string;
}

/**
 * The id fields of a request whose value is text that is no Kasm id in any spelling (an empty text
 * is left out: some operations take `""` for none). Kasm 1.15 hands such a value to its database,
 * which cannot read it as a UUID and fails the call with a server error.
 */
export function malformedIds(params: unknown): MalformedId[] {
  const found: MalformedId[] = [];
  visitIds(params, "", (path, field, value) => {
    if (typeof value === "string" && value.trim() !== "" && !(Id as z.ZodType<string>).safeParse(value).success) found.push({ path, field, value });
  });
  return found;
}

/**
 * What a request names, for a message: each id it sends, as `group e0e0...0003` (the field's name
 * without `_id`), the first three. Empty when it sends no id.
 */
export function requestTarget(params: unknown): string {
  const named: string[] = [];
  visitIds(params, "", (_path, field, value) => {
    if (typeof value === "string" && value !== "") named.push(`${objectOfIdField(field)} ${value.length > 80 ? `${value.slice(0, 80)}...` : value}`);
  });
  return named.slice(0, 3).join(", ");
}

/** The object an id field names, in words: `group_id` a group, `cast_config_id` a cast config. */
export function objectOfIdField(field: string): string {
  return field
    .replace(/_ids?$/, "")
    .replace(/^target_/, "")
    .replace(/_/g, " ");
}

/** Call `visit` with each id field's path, name and value (list items one by one), at any depth. */
function visitIds(value: unknown, path: string, visit: (path: string, field: string, value: unknown) => void): void {
  if (Array.isArray(value)) {
    for (const [i, item] of value.entries()) visitIds(item, `${path}[${i}]`, visit);
    return;
  }
  if (!value || typeof value !== "object" || Object.getPrototypeOf(value) !== Object.prototype) return;
  for (const [name, field] of Object.entries(value)) {
    const where = path === "" ? name : `${path}.${name}`;
    if (!ID_FIELD_NAMES.has(name)) visitIds(field, where, visit);
    else if (Array.isArray(field)) for (const [i, item] of field.entries()) visit(`${where}[${i}]`, name, item);
    else visit(where, name, field);
  }
}
