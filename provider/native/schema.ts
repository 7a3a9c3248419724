/**
 * The package schema of the native provider (`pulumi package get-schema`, and what YAML reads to
 * type a program), derived from each kind's manifest: its inputs from the manifest's zod schema
 * (through `z.toJSONSchema`), `willReplaceOnChanges` on the inputs whose change replaces (the
 * manifest's fields); its outputs from the manifest's output schema, the same way
 * ({@link outputProperties}); `secret: true` on the secret inputs the kind's field declarations name; the provider's
 * configuration from the settings the connection registry reads; and a function per lookup
 * (functions.ts), from the lookups' zod schemas.
 *
 * The descriptions, of each resource, input, output and field of an input's object type, are the
 * manifest's docs (`KindDocs`), from which the TypeScript SDK's TSDoc is generated too, so that the
 * generated Python and Go SDKs show the same docs. The TypeScript example is left out: it would
 * mislead a Python or YAML reader. An output that mirrors an input has the input's description.
 *
 * Type tokens are `kasm:index:<Kind>`. The dynamic resources' `connection` input has no place
 * here: one plugin process serves one provider instance, so an explicit provider is the
 * installation.
 */
import { NATIVE_PACKAGE, nativeToken } from "../../permissions/kinds";
import type { KindName } from "..";
import { CONFIG_KEYS } from "../api/config";
import { PROVIDER_SETTINGS } from "../runtime";
import type { Kind, KindDocs } from "../resources/framework/types";
import { outputProperties, requiredOutputNames, type PropertySpec } from "./outputs";
import { configSpecs } from "./configuration";
import { functionSpecs } from "./functions";
import { fieldTypeName, kindInputSchema, objectOf, type ObjectTypeSpec } from "./json-schema";

/**
 * The Go import path of the generated Go SDK's root package. No Go module is published: a program
 * generates the SDK (`npm run sdk:generate`) and takes it with a `replace` of the module
 * `pulumi-kasm.local/sdk/go` (the SDK's go.mod names it: with `supportPack`, the folder above this path).
 */
export const GO_IMPORT_BASE_PATH = "pulumi-kasm.local/sdk/go/kasm";

/**
 * The npm name of the generated Node.js SDK. Not `pulumi-kasm`: that is the package of the dynamic
 * resources, which ships this plugin, and the SDK is a package of its own (a program that takes it
 * needs the plugin, which the SDK's package.json says with `"resource": true`). Not the generator's
 * default `@pulumi/kasm` either: the `@pulumi` scope is Pulumi's own packages'. Not published: a
 * program installs the tarball that `npm run sdk:generate` packs.
 */
export const NODEJS_PACKAGE_NAME = "@pulumi-kasm/native";

/** `spec` with the description `text`, unless that is missing or empty (then any it has stays). */
function described<T extends { readonly description?: string }>(spec: T, text: string | undefined): T {
  return text === undefined || text === "" ? spec : { ...spec, description: text };
}

/** Each property of `properties` with its description from `texts`, by name. */
function describedAll(properties: Readonly<Record<string, PropertySpec>>, texts: Readonly<Record<string, string>>): Record<string, PropertySpec> {
  return Object.fromEntries(Object.entries(properties).map(([name, spec]) => [name, described(spec, texts[name])]));
}

/** `spec` with the marks a kind's input carries: secret, and whether a change replaces. */
function marked(spec: PropertySpec, secret: boolean, replaces: boolean): PropertySpec {
  return { ...spec, ...(secret ? { secret: true } : {}), ...(replaces ? { willReplaceOnChanges: true } : {}) };
}

/** One kind's resource in the schema, described by `docs`, its nested object types written into `types`. */
function resourceOf(kind: KindName, kindOf: Kind, types: Record<string, ObjectTypeSpec>): object {
  const manifest = kindOf.manifest;
  const docs: KindDocs<Record<string, unknown>> = manifest.docs;
  const json = kindInputSchema(manifest);
  const inputs = objectOf(json, kind, types);
  const secrets = manifest.secrets ?? [];
  const inputProperties = Object.fromEntries(
    Object.entries(describedAll(inputs.properties, docs.inputs)).map(([name, spec]) => [
      name,
      marked(spec, secrets.includes(name), manifest.fields[name]?.replaces === true),
    ]),
  );
  // An input whose objects have named fields has its object type (`objectOf` named it after the field).
  for (const [field, object] of Object.entries(docs.inputObjects ?? {})) {
    if (object === undefined) continue;
    const token = nativeToken(fieldTypeName(kind, field));
    const type = types[token];
    if (type !== undefined) types[token] = { ...described(type, object.description), properties: describedAll(type.properties, object.properties) };
  }
  // The state holds the declared inputs beside the outputs: both are the resource's properties.
  const properties = { ...inputProperties, ...outputProperties(kind, kindOf, types) };
  return {
    description: docs.description,
    inputProperties,
    requiredInputs: inputs.required,
    properties,
    required: [...inputs.required, ...requiredOutputNames(kindOf)],
  };
}

/**
 * The package schema, as the JSON text GetSchema answers.
 *
 * @param version The plugin's version (package.json's): the schema, GetPluginInfo and any SDK keep one.
 * @param kinds The registry's kinds (their manifests).
 */
export function packageSchema(version: string, kinds: Readonly<Record<KindName, Kind>>): string {
  const types: Record<string, ObjectTypeSpec> = {};
  const resources: Record<string, object> = {};
  for (const kind of Object.keys(kinds) as KindName[]) resources[nativeToken(kind)] = resourceOf(kind, kinds[kind], types);
  const functions = functionSpecs(types);
  const config = configSpecs(Object.keys(CONFIG_KEYS), Object.keys(PROVIDER_SETTINGS));
  return JSON.stringify({
    name: NATIVE_PACKAGE,
    displayName: "Kasm Workspaces",
    version,
    description: "Users, groups, staging, casting, egress and servers of a Kasm Workspaces installation.",
    keywords: ["pulumi", "kasm", "category/infrastructure", "kind/native"],
    license: "Apache-2.0",
    config: { variables: config },
    // supportPack: the generated SDKs carry the schema's version (setup metadata, go.mod, and
    // pulumi-plugin.json, which tells the engine which plugin version a program needs), so that
    // GetPluginInfo, the schema and the SDKs keep one version.
    meta: { supportPack: true },
    language: {
      go: { importBasePath: GO_IMPORT_BASE_PATH },
      python: { packageName: "pulumi_kasm", pyproject: { enabled: true } },
      nodejs: { packageName: NODEJS_PACKAGE_NAME },
    },
    provider: { description: "One Kasm Workspaces installation.", inputProperties: config, properties: config },
    resources,
    functions,
    types,
  });
}

/** The names of a kind's inputs (its manifest's fields, each an input of its schema). */
export function inputNames(kind: Kind): string[] {
  return Object.keys(kind.manifest.fields);
}
