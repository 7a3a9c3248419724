/**
 * The outputs each kind computes, as a package schema types them: what the native provider's
 * schema declares beside the inputs, and what a create answers as unknown during preview. Both
 * come from the output schema each kind declares in its manifest (`UserOutputs`), by the same
 * conversion as the inputs (json-schema.ts), descriptions included (each output's `.describe`
 * text, which the SDK's TSDoc is generated from too).
 */
import { z } from "zod";
import { KIND_ID_OUTPUTS } from "../../permissions/kinds";
import type { kinds, OutputsOfKind } from "..";
import type { Kind } from "../resources/framework/types";
import { kindOutputSchema, objectOf, type ObjectTypeSpec } from "./json-schema";

/** A property as a Pulumi package schema types it (the subset the kinds' properties need). */
export interface PropertySpec {
  readonly type?: "string" | "number" | "integer" | "boolean" | "array" | "object";
  readonly items?: PropertySpec;
  readonly additionalProperties?: PropertySpec;
  readonly $ref?: string;
  readonly description?: string;
  readonly secret?: boolean;
  /** A change to the input replaces the resource (what the kind's diff says; shown by generated SDKs). */
  readonly willReplaceOnChanges?: boolean;
}

/**
 * The outputs `kind` computes, each typed and described as a package schema property; an output
 * with named fields gets an object type named after the kind and the output, written into `types`.
 */
export function outputProperties(kindName: string, kind: Kind, types: Record<string, ObjectTypeSpec>): Record<string, PropertySpec> {
  return objectOf(kindOutputSchema(kind.manifest), kindName, types).properties;
}

// The permission catalogue's id outputs are outputs of their kinds: a renamed or missing output fails to compile here.
void (KIND_ID_OUTPUTS satisfies { readonly [K in keyof typeof KIND_ID_OUTPUTS]: keyof OutputsOfKind<(typeof kinds)[K]> });

/**
 * The outputs `kind` always sets (never null, never left out, such as a User's `userId`): the
 * schema lists them as required, so that the generated SDKs type them as values (`Output<string>`
 * in TypeScript, `pulumi.StringOutput` in Go) that a program passes on to another resource's input.
 */
export function requiredOutputNames(kind: Kind): string[] {
  const schema = kindOutputSchema(kind.manifest);
  const properties = (schema.properties ?? {}) as Record<string, { type?: unknown; anyOf?: readonly { type?: unknown }[] }>;
  const nullable = (name: string) => {
    const property = properties[name] ?? {};
    const types = [property.type, ...(property.anyOf ?? []).map((option) => option.type)].flat();
    return types.includes("null");
  };
  return ((schema.required ?? []) as string[]).filter((name) => !nullable(name));
}

/**
 * The names of the outputs `kind` computes: the keys of its outputs' object schema (what the
 * package schema lists), read from the zod shape rather than converted to JSON Schema, because a
 * preview asks for every resource it creates and the conversion costs far more.
 */
export function outputNames(kind: Kind): string[] {
  const outputs = kind.manifest.outputs;
  return outputs instanceof z.ZodObject ? Object.keys(outputs.shape) : Object.keys(kindOutputSchema(kind.manifest).properties ?? {});
}
