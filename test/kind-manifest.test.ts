/**
 * Every kind's manifest gives each input of its schema a role (key, sent to Kasm, or the
 * provider's own), and no role to an input the schema lacks: an input added to a kind's schema
 * without a field rule would otherwise be accepted by `check` and then never sent nor diffed.
 * And every input named after a kind's id output (`userId`, `groupIds`) says which kind it refers
 * to, so that the tests of exact previews (test/cli/preview-exactness.test.ts), which enumerate the
 * references from the manifests, cover it.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { kinds } from "../provider";
import { unmatchedFields } from "../provider/resources/framework";
import { idOutputOf, KIND_ID_OUTPUTS, type KasmKind } from "../permissions/kinds";

/** The kind whose id output an input's name is (`userId`, or `groupIds` for a list), if any. */
function kindNamedBy(input: string): KasmKind | undefined {
  const singular = input.endsWith("Ids") ? input.slice(0, -1) : input;
  return Object.entries(KIND_ID_OUTPUTS).find(([, output]) => output === singular)?.[0] as KasmKind | undefined;
}

describe("each kind's manifest", () => {
  for (const [kind, { manifest }] of Object.entries(kinds)) {
    it(`${kind}: every input of the schema has a role, and every role an input`, () => {
      const shape = (manifest.schema as unknown as { shape?: object }).shape;
      expect(shape, `${kind}'s schema is not an object schema`).toBeTypeOf("object");
      expect(unmatchedFields(manifest), kind).toEqual({ withoutRole: [], notInSchema: [] });
    });
  }

  it("every input named after a kind's id output refers to that kind, and every reference names a kind with an id output", () => {
    const references: string[] = [];
    for (const [kind, { manifest }] of Object.entries(kinds)) {
      for (const [input, field] of Object.entries(manifest.fields)) {
        const named = kindNamedBy(input);
        if (named !== undefined) expect(field.refersTo, `${kind}.${input} holds ${named} ids: give its field rule refersTo: "${named}"`).toBe(named);
        if (field.refersTo !== undefined) {
          expect(idOutputOf(field.refersTo), `${kind}.${input} refers to ${field.refersTo}, which has no id output`).toBeDefined();
          references.push(`${kind}.${input}`);
        }
      }
    }
    // selectedGateways holds gateway ids under a name of its own: it is declared, not named.
    expect(references).toEqual(
      expect.arrayContaining(["EgressProviderMapping.selectedGateways", "EgressCredential.selectedGateways", "GroupMembership.groupId"]),
    );
  });

  it("an input without a role, or a role without an input, is found", () => {
    const schema = z.strictObject({ name: z.string(), forgotten: z.string().optional() });
    const manifest = { schema, fields: { name: { role: "api", replaces: false }, stale: { role: "provider", replaces: false } } } as const;
    expect(unmatchedFields(manifest)).toEqual({ withoutRole: ["forgotten"], notInSchema: ["stale"] });
  });
});
