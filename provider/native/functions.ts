/**
 * The package schema's functions: one per lookup of provider/lookups (`kasm:index:getZone`, ...),
 * derived from the lookup's description, never written by hand. Its inputs are the lookup's
 * arguments (their zod schema); its outputs are the record it answers (the zod schema of the API's
 * record) as Invoke answers it: camelCase, the record type's secret fields marked `secret`, any
 * other field named like a secret left out. A function's outputs must be an object, so a list
 * lookup's are an object with one array property (`getZones` answers `{ zones: [...] }`).
 *
 * Object types nested in a record are named after the function (`GetUserGroups`, and for a list
 * `GetUsersUser`, `GetUsersUserGroups`), as Pulumi's bridged providers name them, so that no
 * type's name meets a resource's (`UserGroups` is a kind).
 */
import { z } from "zod";
import { nativeToken } from "../../permissions/kinds";
import type { LookupName } from "../../permissions/lookups";
import { isSecretFieldName, toCamelCase, toSnakeCase } from "../api/records";

import { LOOKUPS, type Lookup, type RecordSpec } from "../lookups";
import { ANY, objectOf, propertyOf, type Converted, type JsonSchema, type ObjectTypeSpec } from "./json-schema";
import type { PropertySpec } from "./outputs";

/** The token of a lookup's function: `kasm:index:getZone`. */
export function functionToken(lookup: LookupName): string {
  return nativeToken(lookup);
}

/** Every function the provider serves, by token. */
export const FUNCTION_TOKENS: ReadonlyMap<string, LookupName> = new Map(
  (Object.keys(LOOKUPS) as LookupName[]).map((lookup) => [functionToken(lookup), lookup]),
);

/**
 * A node with every property name camelCased, at any depth, as the answer's records are; with
 * `scrub`, without the properties named like a secret, as the answer leaves them out.
 */
function camelCased(node: JsonSchema, scrub: boolean): JsonSchema {
  const kept = (name: string) => !(scrub && isSecretFieldName(name));
  return {
    ...node,
    ...(node.properties && {
      properties: Object.fromEntries(
        Object.entries(node.properties)
          .filter(([name]) => kept(name))
          .map(([name, child]) => [toCamelCase(name), camelCased(child, scrub)]),
      ),
    }),
    ...(node.required && { required: node.required.filter(kept).map(toCamelCase) }),
    ...(node.items && { items: camelCased(node.items, scrub) }),
    ...(node.anyOf && { anyOf: node.anyOf.map((option) => camelCased(option, scrub)) }),
    ...(typeof node.additionalProperties === "object" && { additionalProperties: camelCased(node.additionalProperties, scrub) }),
  };
}

/** The properties of a record as Invoke answers it, its nested object types (named after `typeName`) written into `types`. */
function recordProperties(record: RecordSpec<unknown>, typeName: string, types: Record<string, ObjectTypeSpec>): Converted {
  const json = z.toJSONSchema(record.schema, { io: "output", unrepresentable: "any" }) as JsonSchema;
  const secrets = new Set(record.secrets.fields.map(toSnakeCase));
  const isPlain = ([name]: [string, unknown]) => !secrets.has(name);
  const plain: JsonSchema = {
    ...json,
    properties: Object.fromEntries(Object.entries(json.properties ?? {}).filter(isPlain)),
    required: (json.required ?? []).filter((name) => !secrets.has(name)),
  };
  const { properties, required } = objectOf(camelCased(plain, true), typeName, types);
  for (const field of record.secrets.fields) {
    // A secret field is answered whole (nothing inside it left out); most are not in the record's schema.
    const declared = json.properties?.[toSnakeCase(field)];
    const { type, description } = record.secrets.specs[field];
    const spec: PropertySpec = declared
      ? propertyOf(camelCased(declared, false), typeName + field[0].toUpperCase() + field.slice(1), types)
      : type === "string"
        ? { type: "string" }
        : ANY;
    // Described where the record's secrets are listed, whether or not its schema declares it.
    properties[field] = { ...spec, description, secret: true };
  }
  return { properties, required };
}

/** A lookup's outputs: the record's properties, or for a list lookup one array of records. */
function outputsOf(name: LookupName, lookup: Lookup, types: Record<string, ObjectTypeSpec>): ObjectTypeSpec {
  const typeName = name[0].toUpperCase() + name.slice(1);
  if (lookup.list === undefined) return { type: "object", ...recordProperties(lookup.record, typeName, types) };
  const itemName = typeName + lookup.record.name;
  types[nativeToken(itemName)] = { type: "object", ...recordProperties(lookup.record, itemName, types) };
  const items: PropertySpec = { $ref: `#/types/${nativeToken(itemName)}` };
  // The list is all the function answers: what the lookup finds describes it.
  return { type: "object", properties: { [lookup.list]: { type: "array", items, description: lookup.description } }, required: [lookup.list] };
}

/** One lookup's function: its description, inputs (left out when it takes no argument) and outputs. */
function functionOf(name: LookupName, lookup: Lookup, types: Record<string, ObjectTypeSpec>): object {
  const args = z.toJSONSchema(lookup.args, { io: "input", unrepresentable: "any" }) as JsonSchema;
  const inputs = objectOf(args, `${name[0].toUpperCase()}${name.slice(1)}Args`, types);
  const takesArguments = Object.keys(inputs.properties).length > 0;
  return {
    description: lookup.description,
    ...(takesArguments && { inputs: { type: "object", ...inputs } }),
    outputs: outputsOf(name, lookup, types),
  };
}

/** The schema's `functions`, by token, their object types written into `types`. */
export function functionSpecs(types: Record<string, ObjectTypeSpec>): Record<string, object> {
  return Object.fromEntries([...FUNCTION_TOKENS].map(([token, lookup]) => [token, functionOf(lookup, LOOKUPS[lookup], types)]));
}
