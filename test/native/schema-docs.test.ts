/**
 * The descriptions in the native provider's package schema: every resource, input, output and
 * field of an input's object type carries the kind's docs (its manifest's `docs`, which the
 * TypeScript SDK's TSDoc is generated from too), so that the generated Python and Go SDKs and
 * `pulumi package get-schema` show the same docs as the TypeScript SDK. The last test holds the
 * generated SDK classes, in the sources and in the build, to what the docs say now.
 */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { KASM_KINDS } from "../../permissions/kinds";
import { kinds, type KindName } from "../../provider";
import { outputNames, type PropertySpec } from "../../provider/native/outputs";
import { packageSchema } from "../../provider/native/schema";
import { GENERATED_FOLDER, kindModule, moduleName } from "../../scripts/sdk/typescript";

const ROOT = path.resolve(__dirname, "..", "..");

interface ResourceSpec {
  readonly description?: string;
  readonly inputProperties: Record<string, PropertySpec>;
  readonly properties: Record<string, PropertySpec>;
}
interface ObjectTypeSpec {
  readonly description?: string;
  readonly properties: Record<string, PropertySpec>;
}

interface FunctionSpec {
  readonly description?: string;
  readonly outputs: { readonly properties: Record<string, PropertySpec> };
}

const schema = JSON.parse(packageSchema("0.0.0", kinds)) as {
  resources: Record<string, ResourceSpec>;
  types: Record<string, ObjectTypeSpec>;
  functions: Record<string, FunctionSpec>;
};
const resources = Object.entries(schema.resources);

/** The names of `properties` whose description is missing or blank. */
const undescribed = (properties: Record<string, PropertySpec>) => Object.keys(properties).filter((name) => !properties[name].description?.trim());

describe("the native schema's descriptions", () => {
  it("describe every resource by its SDK class's TSDoc, without the TypeScript examples", () => {
    expect(resources.map(([token]) => token).sort()).toEqual(KASM_KINDS.map((kind) => `kasm:index:${kind}`).sort());
    for (const [token, resource] of resources) {
      expect(resource.description?.trim(), token).toBeTruthy();
      expect(resource.description, token).not.toMatch(/@example|```/);
    }
    expect(schema.resources["kasm:index:User"].description).toBe("A Kasm user. Every field updates in place.");
  });

  // The docs have one source, the sdk's `<Kind>Args`: an input added to a kind's zod schema (and
  // so to its sdk Args) without TSDoc fails here. Write the TSDoc in sdk/<kind>.ts.
  it("describe every input of every resource", () => {
    for (const [token, resource] of resources) expect(undescribed(resource.inputProperties), `${token}: inputs without TSDoc in the sdk's Args`).toEqual([]);
  });

  // An output added to a kind's zod outputs without a `.describe` text fails here (and stops the build): write it in provider/resources/<kind>.ts.
  it("describe every output: an input's mirror with the input's text, a computed one by its Outputs member", () => {
    for (const [token, resource] of resources) {
      expect(undescribed(resource.properties), `${token}: outputs without TSDoc`).toEqual([]);
      for (const [name, input] of Object.entries(resource.inputProperties)) expect(resource.properties[name], `${token}.${name}`).toEqual(input);
    }
    expect(schema.resources["kasm:index:User"].properties.userId.description).toBe("The user's id (32 hex digits).");
  });

  it("describe the object types of inputs and every field of theirs, by the sdk interface that types them", () => {
    // The object types the resources' inputs refer to (the lookups' result types are the functions').
    const referred = new Set([...JSON.stringify(schema.resources).matchAll(/"#\/types\/([^"]+)"/g)].map((m) => m[1]));
    expect(referred.size).toBeGreaterThan(0);
    for (const [token, type] of Object.entries(schema.types).filter(([token]) => referred.has(token))) {
      expect(type.description?.trim(), token).toBeTruthy();
      expect(undescribed(type.properties), `${token}: fields without TSDoc`).toEqual([]);
    }
    expect(schema.types["kasm:index:UserSetUsers"].properties.phoneNumber.description).toBe("At most 64 characters (Kasm's `phone`).");
  });

  // A field added to an API record (provider/api/schemas/) without `.describe(...)` fails here, and
  // so does a secret field without its description in provider/lookups/secrets.ts.
  it("describe every field the lookups answer, at any depth: the functions' outputs and their object types", () => {
    const functions = Object.entries(schema.functions);
    expect(functions.length).toBeGreaterThan(0);
    for (const [token, fn] of functions) {
      expect(fn.description?.trim(), token).toBeTruthy();
      expect(undescribed(fn.outputs.properties), `${token}: outputs without a description`).toEqual([]);
    }
    const referred = new Set([...JSON.stringify(schema.functions).matchAll(/"#\/types\/([^"]+)"/g)].map((m) => m[1]));
    // Types referred to from the functions' types, too (a user's sessions and each session's user).
    for (let grown = true; grown; ) {
      const before = referred.size;
      for (const token of [...referred]) for (const m of JSON.stringify(schema.types[token] ?? {}).matchAll(/"#\/types\/([^"]+)"/g)) referred.add(m[1]);
      grown = referred.size > before;
    }
    expect(referred.has("kasm:index:GetUserWssUser")).toBe(true);
    for (const token of referred) expect(undescribed(schema.types[token].properties), `${token}: fields without a description`).toEqual([]);
    // A secret field is described where the record's secrets are listed, the schema declaring it or not.
    expect(schema.functions["kasm:index:getServer"].outputs.properties.connectionPassword).toMatchObject({
      secret: true,
      description: expect.stringContaining("password"),
    });
    expect(schema.functions["kasm:index:getUsers"].outputs.properties.users.description).toBe("Every user matching the filters, across all pages.");
  });

  it("are the sdk's TSDoc text, links as plain names and each paragraph on one line", () => {
    expect(schema.resources["kasm:index:User"].inputProperties.username.description).toBe(
      "The login name. Kasm trims and lowercases it; changing it renames the user in place.",
    );
    // `(see {@link ServerImportRow})` in sdk/server-import.ts.
    expect(schema.resources["kasm:index:ServerImport"].inputProperties.servers.description).toBe("The servers as rows (see ServerImportRow).");
    const texts = [
      ...resources.flatMap(([, r]) => [r.description, ...Object.values(r.properties).map((p) => p.description)]),
      ...Object.values(schema.types).map((t) => t.description),
    ];
    expect(texts.filter((text) => text?.includes("{@link"))).toEqual([]);
    // The csv input's TSDoc is wrapped over four lines.
    expect(schema.resources["kasm:index:UserSet"].inputProperties.csv.description).not.toContain("\n");
  });

  it("leave the secret and replacement marks as the field declarations set them", () => {
    for (const [token, resource] of resources) {
      const kind = token.slice("kasm:index:".length) as keyof typeof kinds;
      const secrets = Object.keys(resource.inputProperties).filter((name) => resource.inputProperties[name].secret === true);
      expect(secrets.sort(), token).toEqual([...(kinds[kind].manifest.secrets ?? [])].sort());
      const fields = kinds[kind].manifest.fields as Record<string, { replaces?: boolean }>;
      const replacing = Object.keys(resource.inputProperties).filter((name) => resource.inputProperties[name].willReplaceOnChanges === true);
      expect(replacing, token).toEqual(Object.keys(resource.inputProperties).filter((name) => fields[name]?.replaces === true));
    }
    expect(schema.resources["kasm:index:User"].inputProperties.password).toMatchObject({ secret: true });
    expect(schema.resources["kasm:index:LicenseActivation"].inputProperties.activationKey).toMatchObject({ secret: true, willReplaceOnChanges: true });
  });

  it("are the docs the TypeScript SDK's generated classes carry, in the sources and in the build", () => {
    for (const kind of Object.keys(kinds) as KindName[]) {
      const source = path.join(ROOT, GENERATED_FOLDER, `${moduleName(kind)}.ts`);
      expect(existsSync(source), `${source} is missing: run \`npm run build\``).toBe(true);
      expect(readFileSync(source, "utf8"), `${source} is older than the ${kind} kind: run \`npm run build\``).toBe(kindModule(kind, kinds[kind]).text);
      expect(existsSync(path.join(ROOT, "dist", GENERATED_FOLDER, `${moduleName(kind)}.d.ts`)), `dist/ has no ${kind} class: run \`npm run build\``).toBe(true);
    }
    expect(kindModule("User", kinds.User).text).toContain(
      `  /** The user's id (32 hex digits). */\n  declare readonly userId: pulumi.Output<UserOutputs["userId"]>;`,
    );
  });
});

describe("the output names the native provider writes into each resource's state", () => {
  it("are, for every kind, the outputs the package schema lists beyond its inputs (read from the zod shape, not converted)", () => {
    for (const name of KASM_KINDS) {
      const kind = kinds[name as KindName];
      const spec = schema.resources[`kasm:index:${name}`];
      const listed = Object.keys(spec.properties).filter((property) => !(property in spec.inputProperties));
      expect(outputNames(kind).sort(), name).toEqual(expect.arrayContaining(listed.sort()));
      expect(outputNames(kind).every((output) => output in spec.properties)).toBe(true);
    }
  });
});
