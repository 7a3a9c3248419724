/**
 * The rules of the TypeScript SDK's generator (scripts/sdk/typescript.ts), on a kind made up for
 * the test: how each schema type becomes an argument type, what a field rule or the manifest adds
 * to the class, and how the docs become TSDoc. That every real kind's generated `Args` agree with
 * its zod inputs is test/types/sdk-args.test-d.ts's; that the files are current is
 * test/native/schema-docs.test.ts's.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import type { Kind, KindDocs, ManifestField } from "../../provider/resources/framework/types";
import { kindModule } from "../../scripts/sdk/typescript";

const Inputs = z.strictObject({
  name: z.string(),
  mode: z.enum(["additive", "authoritative"]).optional(),
  labels: z.array(z.string()).optional(),
  ids: z.record(z.string(), z.string()).optional(),
  runConfig: z.record(z.string(), z.unknown()).optional(),
  rows: z.array(z.strictObject({ username: z.string(), groups: z.array(z.string()).optional() })).optional(),
  csv: z.string().optional(),
  draining: z.boolean().optional(),
});
type Inputs = z.infer<typeof Inputs>;
const Outputs = z.strictObject({ userIds: z.record(z.string(), z.string()).describe("Username -> user id.") });

const DOCS: KindDocs<Inputs> = {
  description: "Many users. A UserSet or a User, through an EgressProviderMapping; ends with */ here.\n\n- a list item",
  arguments: "The arguments.",
  example: ['const team = new kasm.UserSet("team", {', "  users: [],", "});"].join("\n"),
  inputs: {
    name: "The name.",
    mode: "How groups apply.",
    labels: "Labels.",
    ids: "Name -> id.",
    runConfig: "Any JSON.",
    rows: "The rows.",
    csv: "The CSV.",
    draining: "Whether it drains. Default: true.",
  },
  inputObjects: { rows: { name: "MadeUpRow", description: "One row.", properties: { username: "The login name.", groups: "Group names." } } },
  limits: "",
};

const field = (role: ManifestField["role"], more: Partial<ManifestField> = {}): ManifestField => ({ role, replaces: false, ...more });

/** A kind the generator renders under the name `UserSet` (so that its module's names are the real ones). */
function madeUp(manifest: Partial<Kind["manifest"]> = {}): Kind {
  return {
    manifest: {
      schema: Inputs,
      outputs: Outputs,
      docs: DOCS as unknown as Kind["manifest"]["docs"],
      fields: Object.fromEntries(Object.keys(Inputs.shape).map((name) => [name, field("api", name === "draining" ? { alwaysSet: true } : {})])),
      ...manifest,
    },
  } as unknown as Kind;
}

describe("the TypeScript SDK's generator", () => {
  const { text, types } = kindModule("UserSet", madeUp({ exactlyOneOf: ["rows", "csv"], plannedIds: ["userIds"] }));

  it("types each argument as its schema accepts it, every value a pulumi.Input, and optional where the schema is", () => {
    expect(text).toContain("  readonly name: pulumi.Input<string>;");
    expect(text).toContain('  readonly mode?: pulumi.Input<"additive" | "authoritative">;');
    expect(text).toContain("  readonly labels?: pulumi.Input<pulumi.Input<string>[]>;");
    expect(text).toContain("  readonly ids?: pulumi.Input<Record<string, pulumi.Input<string>>>;");
    expect(text).toContain("  readonly runConfig?: pulumi.Input<Record<string, unknown>>;");
    expect(text).toContain("  readonly rows?: pulumi.Input<pulumi.Input<MadeUpRow>[]>;");
    expect(text).toContain("export interface MadeUpRow {\n  /** The login name. */\n  readonly username: pulumi.Input<string>;");
    expect(types).toEqual(["UserSetArgs", "MadeUpRow"]);
  });

  it("declares each computed output with its doc and its Outputs type, and registers it, the planned ids and the one-of pair", () => {
    expect(text).toContain('  /** Username -> user id. */\n  declare readonly userIds: pulumi.Output<UserSetOutputs["userIds"]>;');
    expect(text).toContain('super(name, args, opts, { computed: { userIds: true }, plannedIds: ["userIds"] });');
    expect(text).toContain('constructor(name: string, args: ExactlyOneOf<UserSetArgs, "rows", "csv">, opts?: pulumi.CustomResourceOptions)');
  });

  it("declares an input the provider always sets as never undefined, and mirrors the others", () => {
    expect(text).toContain('  declare readonly draining: pulumi.Output<NonNullable<pulumi.Unwrap<UserSetArgs["draining"]>>>;');
    expect(text).toContain('export interface UserSet extends InputOutputs<Omit<UserSetArgs, "draining">> {}');
  });

  it("writes the docs as TSDoc: compound names linked, one-word names plain, code kept as written, a comment's end escaped", () => {
    expect(text).toContain("Many users. A {@link UserSet} or a User, through an {@link EgressProviderMapping}; ends with *\\/ here.");
    expect(text).toContain(' * @example\n * ```ts\n * const team = new kasm.UserSet("team", {\n *   users: [],\n * });\n * ```');
    expect(text).toContain(" * - a list item");
  });

  it("refuses an input holding objects whose docs name no SDK type for them", () => {
    const withoutObjectDocs = madeUp({ docs: { ...DOCS, inputObjects: {} } as unknown as Kind["manifest"]["docs"] });
    expect(() => kindModule("UserSet", withoutObjectDocs)).toThrow(
      "UserSet: the input rows holds objects, and its docs name no SDK type for them (docs.inputObjects)",
    );
  });

  it("refuses an output without a doc, naming the output and where to write it", () => {
    const undescribed = madeUp({ outputs: z.strictObject({ userIds: z.record(z.string(), z.string()), count: z.number().int().describe("How many.") }) });
    expect(() => kindModule("UserSet", undescribed)).toThrow(
      `UserSet: the output userIds has no doc: give it one with .describe("...") in the kind's zod outputs`,
    );
  });
});
