/**
 * What each kind answers kasm-recover for a create a killed run sent (see
 * provider/resources/framework/interrupted-create.ts), against the emulator over HTTP: the object the
 * create made (its natural key, and every declared field Kasm shows equal), none, one that differs
 * (named by its fields), or, where Kasm cannot read such objects, that it cannot tell. The inputs
 * are those `check` stores, as a pending create in the state holds them.
 */
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { kinds } from "../../provider";
import type { InterruptedCreate } from "../../provider/resources/framework/interrupted-create";
import type { KindContext, Props } from "../../provider/resources/framework/types";
import { ConnectionRegistry, contextIn } from "../../provider/runtime";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";

const IMAGE = "1a2b3c4d5e6f47a8b9c0d1e2f3a4b5c6";
const GROUP = "0c0ffee0c0ffee0c0ffee0c0ffee0001";

type Answering = { interruptedCreate(inputs: Props, context: KindContext): Promise<InterruptedCreate> };

/** A context on the emulator at `url` speaking `apiNames`, as kasm-recover builds one from a stack's configuration. */
function contextOn(url: string, apiNames: "spec" | "product"): { context: KindContext; registry: ConnectionRegistry } {
  const config = new Map([
    ["kasm:baseUrl", url],
    ["kasm:apiKey", ADMIN.key],
    ["kasm:apiKeySecret", ADMIN.secret],
    ["kasm:apiNames", apiNames],
  ]);
  const registry = new ConnectionRegistry((key) => config.get(key), {});
  return { registry, context: contextIn(registry, undefined, "recovered", { warn: async () => undefined, note: async () => undefined }) };
}

/** The inputs as `check` stores them. */
async function checked(kind: keyof typeof kinds, news: Props, context: KindContext): Promise<Props> {
  const result = await kinds[kind].check({}, news, context);
  expect(result.failures ?? []).toEqual([]);
  return result.inputs as Props;
}

describe.each(["spec", "product"] as const)("what a kind answers for an interrupted create (%s names)", (apiNames) => {
  let emulator: TestEmulator;
  let on: ReturnType<typeof contextOn>;

  beforeAll(async () => {
    emulator = await startTestEmulator(
      { groups: [{ group_id: GROUP, name: "Visitors" }], images: [{ image_id: IMAGE, name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" }] },
      { apiNames },
    );
    on = contextOn(emulator.url, apiNames);
  });
  afterAll(async () => {
    await on?.registry.close();
    await emulator?.close();
  });

  it("User: made (even with a password Kasm never shows), not made, and differing in a field", async () => {
    const user = kinds.User as typeof kinds.User & Answering;
    const inputs = await checked("User", { username: "Recovered-Ada", firstName: "Ada", password: "never-shown-1" }, on.context);
    expect(await user.interruptedCreate(inputs, on.context)).toEqual({ outcome: "not-made" });
    const created = await user.create(inputs as never, on.context);
    expect(await user.interruptedCreate(inputs, on.context)).toEqual({ outcome: "made", id: created.id });
    await emulator.specCall("update_user", { target_user: { user_id: created.id, username: "recovered-ada", first_name: "Augusta" } });
    expect(await user.interruptedCreate(inputs, on.context)).toEqual({ outcome: "differs", id: created.id, fields: ["firstName"] });
  });

  it("UserSet: made when every user found is as its row declares it, with every row left for the refresh to confirm; differing names the user", async () => {
    const userSet = kinds.UserSet as typeof kinds.UserSet & Answering;
    const rows = [
      { username: "set-1", firstName: "One" },
      { username: "set-2", firstName: "Two" },
    ];
    const inputs = await checked("UserSet", { users: rows }, on.context);
    expect(await userSet.interruptedCreate(inputs, on.context)).toEqual({ outcome: "not-made" });
    await userSet.create(inputs as never, on.context);
    const made = await userSet.interruptedCreate(inputs, on.context);
    expect(made).toMatchObject({ outcome: "made", state: { userIds: {}, unconfirmed: ["set-1", "set-2"] } });
    const id = (await emulator.specCall("get_user", { target_user: { username: "set-2" } })).body.user.user_id;
    await emulator.specCall("update_user", { target_user: { user_id: id, username: "set-2", first_name: "Other" } });
    expect(await userSet.interruptedCreate(inputs, on.context)).toMatchObject({ outcome: "differs", fields: ["user 'set-2'"] });
  });

  it("CastConfig: found by its key and compared where Kasm lists casting configs; with the spec's names it cannot tell", async () => {
    const castConfig = kinds.CastConfig as typeof kinds.CastConfig & Answering;
    const inputs = await checked("CastConfig", { castingConfigName: "Lobby", key: "lobby", imageId: IMAGE, groupId: GROUP, allowAnonymous: true }, on.context);
    if (apiNames === "spec") {
      const answer = await castConfig.interruptedCreate(inputs, on.context);
      expect(answer).toMatchObject({ outcome: "unknown" });
      expect((answer as { why: string }).why).toContain('kasm:apiNames "spec" Kasm has no operation to list casting configs');
      return;
    }
    expect(await castConfig.interruptedCreate(inputs, on.context)).toEqual({ outcome: "not-made" });
    const created = await castConfig.create(inputs as never, on.context);
    expect(await castConfig.interruptedCreate(inputs, on.context)).toEqual({ outcome: "made", id: created.id });
  });
});
