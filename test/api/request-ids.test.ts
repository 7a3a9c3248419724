/**
 * Outgoing ids: every id field of a request is sent in the canonical form, found from the schemas.
 */
import { describe, expect, it } from "vitest";
import { ID_FIELD_NAMES, withCanonicalIds } from "../../provider/api/transport";

const HYPHENATED = "6E1A5C0C-1F4B-4F6A-9F52-35E1C0A2B3D4";
const CANONICAL = "6e1a5c0c1f4b4f6a9f5235e1c0a2b3d4";

describe("id fields", () => {
  // The id fields are found by walking zod's schema definitions (`schema._zod.def`, the structure
  // Zod 4 exposes to library authors). Should a zod release change it, no field is found, and this
  // test fails before any id goes out in the wrong form.
  it("are found through zod's schema definitions (`_zod.def`)", () => {
    expect(ID_FIELD_NAMES.size, "no id field found: has zod's `_zod.def` changed?").toBeGreaterThan(10);
  });

  it("are read from the schemas: plain, nullable and listed ids", () => {
    for (const name of ["user_id", "group_id", "image_id", "zone_id", "egress_provider_id", "selected_gateways", "default_image"])
      expect(ID_FIELD_NAMES.has(name), name).toBe(true);
    // Fields that are strings in the schemas are not ids, even when named so.
    for (const name of ["recording_id", "license_id", "username", "name"]) expect(ID_FIELD_NAMES.has(name), name).toBe(false);
  });
});

describe("withCanonicalIds", () => {
  it("writes every id field in the canonical form, at any depth and in lists", () => {
    expect(
      withCanonicalIds({
        target_user: { user_id: HYPHENATED, username: "Alice" },
        target_egress_provider_mapping: { selected_gateways: [HYPHENATED, CANONICAL], image_id: null },
        target_user_attributes: { default_image: HYPHENATED.toLowerCase() },
      }),
    ).toEqual({
      target_user: { user_id: CANONICAL, username: "Alice" },
      target_egress_provider_mapping: { selected_gateways: [CANONICAL, CANONICAL], image_id: null },
      target_user_attributes: { default_image: CANONICAL },
    });
  });

  it("sends a value that is no id in any spelling as written, and leaves other fields alone", () => {
    const params = { target_user: { user_id: "not-an-id" }, target_recording: { recording_id: HYPHENATED } };
    expect(withCanonicalIds(params)).toEqual(params);
  });
});
