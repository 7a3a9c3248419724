/**
 * Every kind's manifest gives each input of its schema a role (key, sent to Kasm, or the
 * provider's own), and no role to an input the schema lacks: an input added to a kind's schema
 * without a field rule would otherwise be accepted by `check` and then never sent nor diffed.
 */
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { kinds } from "../provider";
import { unmatchedFields } from "../provider/resources/kit";

describe("each kind's manifest", () => {
  for (const [kind, { manifest }] of Object.entries(kinds)) {
    it(`${kind}: every input of the schema has a role, and every role an input`, () => {
      const shape = (manifest.schema as unknown as { shape?: object }).shape;
      expect(shape, `${kind}'s schema is not an object schema`).toBeTypeOf("object");
      expect(unmatchedFields(manifest), kind).toEqual({ withoutRole: [], notInSchema: [] });
    });
  }

  it("an input without a role, or a role without an input, is found", () => {
    const schema = z.strictObject({ name: z.string(), forgotten: z.string().optional() });
    const manifest = { schema, fields: { name: { role: "api", replaces: false }, stale: { role: "provider", replaces: false } } } as const;
    expect(unmatchedFields(manifest)).toEqual({ withoutRole: ["forgotten"], notInSchema: ["stale"] });
  });
});
