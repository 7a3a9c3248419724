/**
 * The wording of `check` failures for every kind, through Pulumi's real dynamic-provider host:
 * each names its property and what it must be, in plain words. No kind shows the validation
 * library's own wording ("Invalid input: expected number, received undefined"), and no failure
 * repeats the value it refuses (it may be a secret).
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { providers, type KindName } from "../../provider";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";

/** zod's default wording, which no failure may show. */
const LIBRARY_WORDING = /Invalid input|Invalid option|Invalid string|Invalid format|Too small|Too big|Unrecognized key|received|expected .* to (?:have|be)/;

/** A value of a type no input takes, carrying a marker that must never be echoed. */
const WRONG = { marker: "zz-refused-value-9f" };

let emulator: TestEmulator;
let host: ProviderHost;
beforeAll(async () => {
  emulator = await startTestEmulator({});
  host = await hostFor(emulator);
});
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

/** The last name in a property path: `users[0].username` -> `username`. */
const leaf = (property: string) =>
  property
    .replace(/\[\d+\]/g, "")
    .split(".")
    .at(-1)!;

function expectPlain(failures: { property: string; reason: string }[]): void {
  for (const f of failures) {
    expect(f.reason, `${f.property}: ${f.reason}`).not.toMatch(LIBRARY_WORDING);
    expect(f.reason).not.toContain(WRONG.marker);
    if (f.property !== "(inputs)") expect(f.reason, `${f.property}: ${f.reason}`).toContain(leaf(f.property));
  }
}

describe("check messages", () => {
  it.each(Object.keys(providers) as KindName[])("%s: every missing or mistyped input is named, in plain words", async (kind) => {
    const resource = new Driven(host, kind, "words");
    const empty = (await resource.check({})).failures;
    expect(empty.length).toBeGreaterThan(0);
    expectPlain(empty);
    // Each input the empty check named, given a value of the wrong type.
    const named = [...new Set(empty.map((f) => f.property).filter((p) => p !== "(inputs)" && !p.includes(".")))];
    const mistyped = (await resource.check(Object.fromEntries(named.map((p) => [p, WRONG])))).failures;
    expectPlain(mistyped);
    for (const p of named) expect(mistyped.map((f) => f.property)).toContain(p);
  });

  it("StagingConfig: a missing number says it is a number and required; a mistyped flag says true or false", async () => {
    const { failures } = await new Driven(host, "StagingConfig", "s").check({
      zoneId: "0a000000000000000000000000000001",
      imageId: "1b000000000000000000000000000001",
      expiration: 2,
      allowWsAudio: "yes",
    });
    expect(failures).toEqual([
      { property: "numSessions", reason: "numSessions must be a number (got nothing): it is required" },
      { property: "allowWsAudio", reason: "allowWsAudio must be true or false (got text)" },
    ]);
  });

  it("a missing userId or serverId says where a missing id usually comes from: a bulk kind's output read by a misspelt key", async () => {
    // `team.userIds["ada.lovelase"]` resolves to undefined at up: the message names the likely cause.
    const attributes = (await new Driven(host, "UserAttributes", "a").check({ showTips: false })).failures;
    expect(attributes).toEqual([
      {
        property: "userId",
        reason:
          'userId must be text (got nothing): it is required. If it comes from a UserSet\'s userIds["<username>"], that username is not in the set: ' +
          "check its spelling (userIds has one key per user of the set, the username in lower case)",
      },
    ]);
    const drain = (await new Driven(host, "ServerDrain", "d").check({ draining: true })).failures;
    expect(drain.map((f) => f.reason)).toEqual([
      expect.stringContaining('If it comes from a ServerImport\'s serverIds["<name>"], no server of the import has that name'),
    ]);
  });

  it("User: mistyped inputs name the type expected and the kind of value given, and an unknown input its name", async () => {
    const { failures } = await new Driven(host, "User", "u").check({ username: "alice", firstName: 3, locked: "no", colour: "blue" });
    expect(failures).toEqual(
      expect.arrayContaining([
        { property: "firstName", reason: "firstName must be text (got a whole number)" },
        { property: "locked", reason: "locked must be true or false (got text)" },
        { property: "(inputs)", reason: expect.stringMatching(/^colour is not an input of this resource: check the spelling/) },
      ]),
    );
    expect(failures).toHaveLength(3);
  });

  it("a misspelt input, row field or column name gets the likely intent; a word like no name gets none", async () => {
    const permissions = await new Driven(host, "StagingConfig", "p").check({
      zoneId: "0a000000000000000000000000000001",
      imageId: "0a000000000000000000000000000002",
      numSessions: 1,
      expiration: 1,
      allowWsAdio: true,
    });
    expect(permissions.failures).toEqual([
      {
        property: "(inputs)",
        reason:
          "allowWsAdio is not an input of this resource: check the spelling: did you mean allowWsAudio? (inputs are the camelCase names of the API's fields)",
      },
    ]);
    const user = await new Driven(host, "User", "u").check({ username: "alice", colour: "blue" });
    expect(user.failures).toEqual([
      { property: "(inputs)", reason: expect.stringMatching(/^colour is not an input of this resource: check the spelling \(inputs/) },
    ]);
    const set = await new Driven(host, "UserSet", "s").check({ users: [{ username: "ada", fristName: "Ada" }] });
    expect(set.failures.map((f) => f.reason)).toEqual([
      expect.stringMatching(/^users\[0\]\.fristName: unknown field: did you mean firstName\?; the fields are /),
    ]);
    const servers = await new Driven(host, "ServerImport", "i").check({ servers: [{ name: "ws-1", ipHostname: "10.0.0.1", zoneNmae: "default" }] });
    expect(servers.failures.map((f) => f.reason)).toEqual([
      expect.stringMatching(/^row 1 'ws-1': zoneNmae is not a field of a server row: did you mean zoneName\? \(fields: /),
    ]);
  });

  it("UserSet: a value outside a fixed list names the values allowed; UserAttributes: a schema's message gets its property", async () => {
    const set = await new Driven(host, "UserSet", "s").check({ users: [{ username: "ada" }], groupsMode: "strict" });
    expect(set.failures).toEqual([{ property: "groupsMode", reason: 'groupsMode must be one of "additive", "authoritative"' }]);
    const attributes = await new Driven(host, "UserAttributes", "a").check({ userId: "0a000000000000000000000000000001", defaultImage: "chrome" });
    expect(attributes.failures).toEqual([{ property: "defaultImage", reason: expect.stringMatching(/^defaultImage must be /) }]);
  });

  it("an id written wrong is named, with the forms an id takes", async () => {
    const { failures } = await new Driven(host, "GroupMembership", "g").check({ userId: "alice", groupId: "0a000000000000000000000000000001" });
    expect(failures).toEqual([{ property: "userId", reason: "userId must be a Kasm id: 32 hexadecimal digits, or a hyphenated UUID" }]);
  });
});
