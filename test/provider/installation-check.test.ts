/**
 * The one read a change makes of its installation before the plan (framework/connections.ts),
 * through Pulumi's dynamic-provider host: wrong credentials, the wrong vocabulary and unknown
 * group names fail `check` (so `pulumi preview` fails) with no write; one read per installation
 * and host process; none for a check without change, none with `checkBeforeChanges` false.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";
import { TEST_API_NAMES } from "../helpers/vocabulary";

const CHECKING = { "kasm:checkBeforeChanges": "true" };
/** The read each vocabulary makes: an operation only that vocabulary has. */
const PROBE = TEST_API_NAMES === "product" ? "get_groups" : "get_ws_status";

let emulator: TestEmulator;
/** The same installation in the other vocabulary: what a wrong `apiNames` meets. */
let otherVocabulary: TestEmulator;
const hosts: ProviderHost[] = [];

beforeAll(async () => {
  const seed = { groups: [{ name: "Engineering" }] };
  emulator = await startTestEmulator(seed);
  otherVocabulary = await startTestEmulator(seed, { apiNames: TEST_API_NAMES === "product" ? "spec" : "product" });
}, 60_000);

afterAll(async () => {
  await Promise.all(hosts.map((host) => host.stop()));
  await Promise.all([emulator?.close(), otherVocabulary?.close()]);
});

/** A host of its own (the read is once per host process), configured with `config`. */
async function host(config: Record<string, string>, target: TestEmulator = emulator, creds: { key: string; secret: string } = ADMIN): Promise<ProviderHost> {
  const started = await hostFor(target, creds, config);
  hosts.push(started);
  return started;
}

/** The operations sent to `target` while `run` runs. */
async function sentDuring(target: TestEmulator, run: () => Promise<unknown>): Promise<string[]> {
  const before = target.requests.length;
  await run();
  return target.requests.slice(before).map((line) => line.split(" ")[0]);
}

describe("the installation read before a change", () => {
  it("a create's check reads the installation once per host process, and never writes", async () => {
    const checking = await host(CHECKING);
    const sent = await sentDuring(emulator, async () => {
      expect((await new Driven(checking, "User", "ada").check({ username: "ada" })).failures).toEqual([]);
      expect((await new Driven(checking, "User", "grace").check({ username: "grace" })).failures).toEqual([]);
    });
    expect(sent).toEqual([PROBE]);
  });

  it("a check without change sends nothing", async () => {
    const checking = await host(CHECKING);
    const user = new Driven(checking, "User", "same");
    const olds = (await user.check({ username: "same", firstName: "Same" })).inputs;
    const fresh = await host(CHECKING);
    const sent = await sentDuring(emulator, () => new Driven(fresh, "User", "same").check({ username: "same", firstName: "Same" }, olds));
    expect(sent).toEqual([]);
  });

  it("wrong credentials fail the check, naming the settings to fix, with no write", async () => {
    const wrong = await host(CHECKING, emulator, { key: ADMIN.key, secret: "not-the-secret" });
    const sent = await sentDuring(emulator, async () => {
      const { failures } = await new Driven(wrong, "User", "ada").check({ username: "ada" });
      expect(failures).toHaveLength(1);
      expect(failures[0].reason).toMatch(/^before planning this change, one read of the installation `kasm:` configures failed/);
      expect(failures[0].reason).toContain("`kasm:apiKey` and `kasm:apiKeySecret`, or KASM_API_KEY and KASM_API_KEY_SECRET");
      expect(failures[0].reason).toContain("pulumi config set kasm:checkBeforeChanges false");
      expect(failures[0].reason).not.toContain("not-the-secret");
    });
    expect(sent).toEqual([PROBE]);
  });

  it("the wrong vocabulary fails the check, naming kasm:apiNames and the value to set", async () => {
    const mismatched = await host(CHECKING, otherVocabulary);
    const { failures } = await new Driven(mismatched, "User", "ada").check({ username: "ada" });
    const other = TEST_API_NAMES === "product" ? "spec" : "product";
    expect(failures).toHaveLength(1);
    expect(failures[0].reason).toContain(`Set kasm:apiNames to "${other}"`);
    expect(otherVocabulary.requests.every((line) => !/^(create|update|delete|add|remove|set)_/.test(line))).toBe(true);
  });

  it("with checkBeforeChanges false, a check sends nothing, even with wrong credentials", async () => {
    const quiet = await host({ "kasm:checkBeforeChanges": "false" }, emulator, { key: ADMIN.key, secret: "not-the-secret" });
    const sent = await sentDuring(emulator, () => new Driven(quiet, "User", "ada").check({ username: "ada" }));
    expect(sent).toEqual([]);
  });

  it.runIf(TEST_API_NAMES === "product")("a UserSet naming a group Kasm does not have fails the check; a known name or one in groupIds passes", async () => {
    const checking = await host(CHECKING);
    const users = [
      { username: "ada", groups: ["Engineering"] },
      { username: "grace", groups: ["Enginering", "Finance"] },
    ];
    const { failures } = await new Driven(checking, "UserSet", "team").check({ users });
    expect(failures.map((f) => f.reason)).toEqual([
      expect.stringMatching(/^Kasm has no group named 'Enginering' \(named by 'grace'\): its list of groups \(get_groups\) does not hold it/),
      expect.stringMatching(/^Kasm has no group named 'Finance' \(named by 'grace'\)/),
    ]);
    expect(failures[0].property).toBe("users");
    const named = await new Driven(checking, "UserSet", "team").check({ users, groupIds: { Enginering: "a".repeat(32), Finance: "b".repeat(32) } });
    expect(named.failures).toEqual([]);
  });
});
