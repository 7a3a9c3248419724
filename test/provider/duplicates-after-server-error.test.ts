/**
 * User, Group, GroupMembership and CastConfig against an object made outside Pulumi with the same natural key,
 * when Kasm answers the create with a server error (a fault injected before Kasm handles the
 * request, so the create did not commit). After a server error the client looks the key up, or
 * sends the write again, to learn whether its first attempt committed: an object that existed
 * before would be taken for the program's own, and the program would manage, and its destroy
 * delete, a user, group, membership or casting config it never made. So each of these kinds looks its key up
 * before writing, with `adopt` or without, and refuses an existing object before sending anything
 * (a casting config only with `kasm:apiNames product`: the API documentation has no read of them,
 * and there the client's recovery fails loudly instead, see test/provider/cast-config.test.ts).
 * test/provider/egress-duplicates.test.ts does the same for the egress kinds.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { startTestEmulator, type TestEmulator } from "../helpers/emulator";
import type { ProviderHost } from "../helpers/host";
import { Driven, hostFor } from "../helpers/provider";
import { TEST_API_NAMES } from "../helpers/vocabulary";

const ENGINEERING = "1e0a2b3c4d5e6f708192a3b4c5d6e7f8";
const CHROME = "1b000000000000000000000000000001";

let emulator: TestEmulator;
let host: ProviderHost;

beforeAll(async () => {
  emulator = await startTestEmulator({
    groups: [{ group_id: ENGINEERING, name: "Engineering" }],
    images: [{ image_id: CHROME, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }],
    users: [{ username: "carol", first_name: "Carol", groups: ["Engineering"] }, { username: "dave" }],
  });
  host = await hostFor(emulator);
});
afterEach(async () => emulator.faults(null));
afterAll(async () => {
  await host?.stop();
  await emulator?.close();
});

/** How many times `operation` reached the emulator since request `from`. */
const sent = (operation: string, from: number) => emulator.requests.slice(from).filter((line) => line.startsWith(`${operation} `)).length;

/** The user's id as the emulator has it. */
async function userId(username: string): Promise<string> {
  const res = await emulator.specCall("get_user", { target_user: { username } });
  expect(res.status).toBe(200);
  return res.body.user.user_id;
}

/** Every write `operation` fails with a 500 before Kasm handles it. */
const failEvery = (operation: string) => emulator.faults({ rate: 1, kinds: ["500"], operations: [operation], phase: "before", seed: 1 });

describe("an object made outside Pulumi, and a create Kasm answers with a server error", () => {
  it("User: without adopt, the existing user is refused before any create is sent, and stays Kasm's", async () => {
    const carol = await userId("carol");
    const before = await emulator.state();
    await failEvery("create_user");
    const from = emulator.requests.length;
    const resource = new Driven(host, "User", "carol-duplicate");
    const error = (await resource.create({ username: "carol", firstName: "Caroline", password: "not-in-any-message-41" }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain("User 'carol' already exists in Kasm");
    expect(error.message).toContain(`(user ${carol})`);
    expect(error.message).toContain("`adopt: true`");
    expect(error.message).not.toContain("not-in-any-message-41");
    expect(resource.id).toBe("");
    expect(sent("create_user", from)).toBe(0);
    expect(await emulator.state()).toEqual(before);
  });

  it("User: with adopt, the existing user is taken over, and no create is sent", async () => {
    await failEvery("create_user");
    const from = emulator.requests.length;
    const resource = new Driven(host, "User", "dave-adopted");
    await resource.create({ username: "dave", adopt: true });
    expect(resource.id).toBe(await userId("dave"));
    expect(sent("create_user", from)).toBe(0);
  });

  it("GroupMembership: without adopt, the existing membership is refused before any add is sent, and stays Kasm's", async () => {
    const carol = await userId("carol");
    const before = await emulator.state();
    await failEvery("add_user_group");
    const from = emulator.requests.length;
    const resource = new Driven(host, "GroupMembership", "carol-engineering");
    const error = (await resource.create({ userId: carol, groupId: ENGINEERING }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain(`GroupMembership of user ${carol} in group ${ENGINEERING} already exists in Kasm`);
    expect(error.message).toContain("`adopt: true`");
    expect(resource.id).toBe("");
    expect(sent("add_user_group", from)).toBe(0);
    expect(await emulator.state()).toEqual(before);
  });

  it.runIf(TEST_API_NAMES === "product")("Group: without adopt, the existing group is refused before any create is sent, and stays Kasm's", async () => {
    const before = await emulator.state();
    await failEvery("create_group");
    const from = emulator.requests.length;
    const resource = new Driven(host, "Group", "engineering-duplicate");
    const error = (await resource.create({ name: "Engineering", description: "Made by the program" }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain("Group 'Engineering' already exists in Kasm");
    expect(error.message).toContain(`(group ${ENGINEERING})`);
    expect(error.message).toContain("`adopt: true`");
    expect(resource.id).toBe("");
    expect(sent("create_group", from)).toBe(0);
    expect(await emulator.state()).toEqual(before);
  });

  it.runIf(TEST_API_NAMES === "product")("CastConfig: without adopt, the existing config is refused before any create is sent, and stays Kasm's", async () => {
    const made = await emulator.specCall("create_cast_config", { target_cast_config: { casting_config_name: "Lobby", key: "lobby", image_id: CHROME } });
    expect(made.status).toBe(200);
    const before = await emulator.state();
    await failEvery("create_cast_config");
    const from = emulator.requests.length;
    const resource = new Driven(host, "CastConfig", "lobby-duplicate");
    const error = (await resource.create({ castingConfigName: "Lobby", key: "lobby", imageId: CHROME }).catch((e: unknown) => e)) as Error;
    expect(error).toBeInstanceOf(Error);
    expect(error.message).toContain("CastConfig with key 'lobby' or name 'Lobby' already exists in Kasm");
    expect(error.message).toContain(`(casting config ${made.body.cast_config.cast_config_id})`);
    expect(error.message).toContain("`adopt: true`");
    expect(resource.id).toBe("");
    expect(sent("create_cast_config", from)).toBe(0);
    expect(await emulator.state()).toEqual(before);
  });
});
