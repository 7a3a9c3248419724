/**
 * The one mapping between API records and camelCase: names both ways, whole records for the
 * lookups, named fields for a resource's read, request bodies from declared inputs.
 */
import { describe, expect, expectTypeOf, it } from "vitest";
import { camelized, fromApiFields, toApiBody, toCamelCase, toSnakeCase, type StagingConfig } from "../../provider/api";

const config: StagingConfig = {
  staging_config_id: "a".repeat(32),
  zone_id: "b".repeat(32),
  image_id: "c".repeat(32),
  num_sessions: 2,
  expiration: 1.5,
  allow_ws_audio: null,
};

describe("field names", () => {
  it("turns snake_case into camelCase and back", () => {
    expect(toCamelCase("casting_config_name")).toBe("castingConfigName");
    expect(toCamelCase("allow_ws_clipboard_up")).toBe("allowWsClipboardUp");
    expect(toCamelCase("group_1")).toBe("group1");
    expect(toSnakeCase("castingConfigName")).toBe("casting_config_name");
    expect(toSnakeCase("name")).toBe("name");
  });
});

describe("camelized", () => {
  it("renames keys at any depth, in arrays too, and keeps other values", () => {
    const record = { user_id: "x", groups: [{ group_id: "g", name: "All Users" }], settings: { max_sessions: 1 }, note: null };
    expect(camelized(record)).toEqual({ userId: "x", groups: [{ groupId: "g", name: "All Users" }], settings: { maxSessions: 1 }, note: null });
    expectTypeOf(camelized(record).groups[0].groupId).toEqualTypeOf<string>();
  });
});

describe("fromApiFields", () => {
  it("picks the named fields by their camelCase names, with the values as sent", () => {
    const picked = fromApiFields(config, ["numSessions", "expiration", "allowWsAudio"]);
    expect(picked).toEqual({ numSessions: 2, expiration: 1.5, allowWsAudio: null });
    expectTypeOf(picked.numSessions).toEqualTypeOf<number>();
  });

  it("leaves out a field the record lacks, and does not rename inside nested values", () => {
    const record = { zone_name: "eu", launch_config: { run_as_user: 1 } } as {
      zone_name?: string;
      launch_config?: Record<string, unknown>;
      image_name?: string;
    };
    expect(fromApiFields(record, ["zoneName", "launchConfig", "imageName"])).toEqual({ zoneName: "eu", launchConfig: { run_as_user: 1 } });
  });

  it("refuses, when compiling, a field the record type does not have", () => {
    // @ts-expect-error `numSession` is not a field of a staging config.
    fromApiFields(config, ["numSession"]);
  });
});

describe("toApiBody", () => {
  it("names the declared inputs in snake_case and leaves out the undefined ones", () => {
    expect(toApiBody({ zoneId: "z", numSessions: 0, expiration: undefined, other: 1 }, ["zoneId", "numSessions", "expiration"])).toEqual({
      zone_id: "z",
      num_sessions: 0,
    });
  });
});
