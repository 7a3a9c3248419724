/**
 * JSON Schema, as `z.toJSONSchema` writes it, to the types of a Pulumi package schema: for the
 * kinds' inputs (schema.ts) and for the lookups' arguments and records (functions.ts), so that
 * every type of the package schema comes from a zod schema by one conversion.
 */
import { z } from "zod";
import { nativeToken } from "../../permissions/kinds";
import type { PropertySpec } from "./outputs";

/** A JSON Schema node as `z.toJSONSchema` writes it (the parts read here). */
export interface JsonSchema {
  /** One type, or several (`["string", "null"]` for a nullable string). */
  readonly type?: string | readonly string[];
  readonly properties?: Readonly<Record<string, JsonSchema>>;
  readonly required?: readonly string[];
  readonly items?: JsonSchema;
  readonly additionalProperties?: JsonSchema | boolean;
  readonly anyOf?: readonly JsonSchema[];
  /** The values of an enum. */
  readonly enum?: readonly unknown[];
  /** The one value of a literal. */
  readonly const?: unknown;
  readonly description?: string;
}

/**
 * A kind's inputs as JSON Schema: what a program may give, before the schema's transforms. The one
 * reading of a kind's zod schema for what describes its inputs elsewhere (this package schema, the
 * TypeScript SDK's argument types, the README's Resources table).
 */
export function kindInputSchema(manifest: { readonly schema: z.ZodType }): JsonSchema {
  return z.toJSONSchema(manifest.schema, { io: "input", unrepresentable: "any" }) as JsonSchema;
}

/**
 * A kind's outputs as JSON Schema: each output the provider adds, its type and its doc (the
 * `.describe` text). The one reading of a kind's zod outputs, as {@link kindInputSchema} is of
 * its inputs.
 */
export function kindOutputSchema(manifest: { readonly outputs: z.ZodType }): JsonSchema {
  return z.toJSONSchema(manifest.outputs, { io: "output", unrepresentable: "any" }) as JsonSchema;
}

/** An object type of the schema (`types`, or a function's inputs and outputs): named fields. */
export interface ObjectTypeSpec {
  readonly type: "object";
  readonly properties: Record<string, PropertySpec>;
  readonly required?: string[];
  readonly description?: string;
}

/** What an object node turns into: its properties, and which of them are required. */
export interface Converted {
  readonly properties: Record<string, PropertySpec>;
  readonly required: string[];
}

/** Any value. */
export const ANY: PropertySpec = { $ref: "pulumi.json#/Any" };

/** Whether a node is only `null` (the other half of a nullable value). */
function isNull(node: JsonSchema): boolean {
  return node.type === "null";
}

/**
 * One JSON Schema node as a property of the package schema. An object with named fields becomes
 * an object type named `typeName` (written into `types`); a nullable value is its type (a package
 * schema's properties may be null); a union of one type becomes that type, any other union `Any`.
 */
export function propertyOf(node: JsonSchema, typeName: string, types: Record<string, ObjectTypeSpec>): PropertySpec {
  const described = node.description === undefined ? {} : { description: node.description };
  if (node.anyOf !== undefined) {
    const options = node.anyOf.filter((option) => !isNull(option));
    if (options.length === 1) return { ...propertyOf(options[0], typeName, types), ...described };
    const kinds = new Set(options.map((option) => option.type));
    return kinds.size === 1 && options[0].type !== "object" && options[0].type !== "array"
      ? { ...propertyOf(options[0], typeName, types), ...described }
      : { ...ANY, ...described };
  }
  if (Array.isArray(node.type)) {
    const kinds = node.type.filter((kind) => kind !== "null");
    return kinds.length === 1 ? propertyOf({ ...node, type: kinds[0] }, typeName, types) : { ...ANY, ...described };
  }
  switch (node.type) {
    case "string":
    case "number":
    case "integer":
    case "boolean":
      return { type: node.type, ...described };
    case "array":
      return { type: "array", items: node.items === undefined ? ANY : propertyOf(node.items, typeName, types), ...described };
    case "object": {
      if (node.properties !== undefined) {
        const token = nativeToken(typeName);
        // The object's own `.describe` describes its type (an output's object: a registry's workspaces).
        types[token] = { type: "object", ...described, ...objectOf(node, typeName, types) };
        return { $ref: `#/types/${token}`, ...described };
      }
      const values = typeof node.additionalProperties === "object" ? propertyOf(node.additionalProperties, typeName, types) : ANY;
      return { type: "object", additionalProperties: values, ...described };
    }
    default:
      return { ...ANY, ...described };
  }
}

/** The name of the object type of `owner`'s field `field` (`UserSetUsers` for a UserSet's `users`). */
export function fieldTypeName(owner: string, field: string): string {
  return owner + field[0].toUpperCase() + field.slice(1);
}

/** The properties of an object node, each nested object type named after its owner and field. */
export function objectOf(node: JsonSchema, typeName: string, types: Record<string, ObjectTypeSpec>): Converted {
  const properties: Record<string, PropertySpec> = {};
  for (const [name, child] of Object.entries(node.properties ?? {})) properties[name] = propertyOf(child, fieldTypeName(typeName, name), types);
  return { properties, required: [...(node.required ?? [])] };
}
