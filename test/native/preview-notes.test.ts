/**
 * What the native provider's preview of an update tells the permissions pack, and where it never
 * shows: a Workspace's `resourceFieldsChanging` and a CastConfig's `groupChanging` travel in the
 * planned outputs of `Update` with `preview` (which a stack policy reads, and the CLI does not
 * print), never in the checked inputs (which the state keeps and a dynamic resource's diff shows)
 * nor in the outputs of the update itself. The planned outputs are then handed, as the engine
 * hands them, to the pack served by @pulumi/policy's own analyzer server: a memory change is
 * refused without Images Modify Resources, a description change is not, a move between groups
 * needs Groups Modify. The provider runs as the plugin binary's server, the emulator over HTTP in
 * the released product's vocabulary.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { PACK_NAME, policies, REGISTRY } from "../../policy/permissions/policies";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { startNativeProvider, struct, type NativeProviderClient } from "../helpers/native-provider";
import { AnalyzerDriver, servePack } from "../policy/analyzer-client";

const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const VERSION = (require("../../policy/permissions/package.json") as { version: string }).version;
const urnOf = (kind: string, name: string) => `urn:pulumi:ci::native::kasm:index:${kind}::${name}`;
const IMAGES = ["Images View", "Images Create", "Images Modify", "Images Delete"];
const CASTING = ["Casting View", "Casting Create", "Casting Modify", "Casting Delete", "Groups View"];

type Props = Record<string, unknown>;

let emulator: TestEmulator;
let provider: NativeProviderClient;
let driver: AnalyzerDriver;
const call = <Req, Res>(method: string, request: Req) => provider.call<Req, Res>(method, request);

/** One resource as the engine drives it: check, then create; its state is the create's outputs. */
async function created(kind: string, name: string, inputs: Props): Promise<{ id: string; inputs: Props; state: Props }> {
  const checked = await check(kind, name, {}, inputs);
  const response = await call<provproto.CreateRequest, provproto.CreateResponse>(
    "create",
    new provproto.CreateRequest().setUrn(urnOf(kind, name)).setProperties(struct(checked)),
  );
  return { id: response.getId(), inputs: checked, state: response.getProperties()?.toJavaScript() ?? {} };
}

/** The checked inputs of `news` against the old inputs `olds`, failing on any check failure. */
async function check(kind: string, name: string, olds: Props, news: Props): Promise<Props> {
  const response = await call<provproto.CheckRequest, provproto.CheckResponse>(
    "check",
    new provproto.CheckRequest().setUrn(urnOf(kind, name)).setOlds(struct(olds)).setNews(struct(news)),
  );
  expect(response.getFailuresList().map((failure) => failure.getReason())).toEqual([]);
  return response.getInputs()?.toJavaScript() ?? {};
}

/** The outputs of an update (`preview`: the planned ones, nothing sent) from the state to the checked `news`. */
async function updated(kind: string, name: string, resource: { id: string; state: Props }, news: Props, preview: boolean): Promise<Props> {
  const request = new provproto.UpdateRequest()
    .setUrn(urnOf(kind, name))
    .setId(resource.id)
    .setOlds(struct(resource.state))
    .setNews(struct(news))
    .setPreview(preview);
  return (await call<provproto.UpdateRequest, provproto.UpdateResponse>("update", request)).getProperties()?.toJavaScript() ?? {};
}

/** The ids of the installation's system groups, as the pack's config names them. */
async function systemGroupIds(): Promise<{ allUsers: string; administrators: string }> {
  const groups = (await emulator.call("get_groups")).body.groups as { name: string; group_id: string }[];
  const id = (name: string) => groups.find((group) => group.name === name)!.group_id;
  return { allUsers: id("All Users"), administrators: id("Administrators") };
}

/** The pack's verdicts on one native resource whose properties are `props`, with a key holding `permissions`. */
async function verdicts(kind: "Workspace" | "CastConfig", name: string, props: Props, permissions: readonly string[]) {
  const key = { permissions, readOnly: false, systemGroupIds: await systemGroupIds() };
  await driver.configure(Object.fromEntries(REGISTRY.map(({ name: policy }) => [policy, key])));
  const diagnostics = await driver.analyzeStack([{ kind, name, props, form: "native" }]);
  return diagnostics.filter((d) => d.policy === "resource-needs-permissions").map((d) => ({ level: d.level, message: d.message }));
}

beforeAll(async () => {
  emulator = await startTestEmulator({}, { apiNames: "product" });
  provider = await startNativeProvider();
  await call(
    "configure",
    new provproto.ConfigureRequest().setArgs(
      struct({ baseUrl: emulator.url, apiKey: ADMIN.key, apiKeySecret: { ...SECRET, value: ADMIN.secret }, apiNames: "product", maxRetries: 0 }),
    ),
  );
  driver = await servePack(PACK_NAME, VERSION, policies);
});

afterAll(async () => {
  driver?.close();
  await provider?.close();
  await emulator?.close();
});

describe("the native provider's preview of an update tells the permissions pack what it changes", () => {
  it("a Workspace: the planned outputs name the compute fields a change sets; the checked inputs and the update's outputs never do", async () => {
    const declared = { name: "kasmweb/chrome:1.16.0", friendlyName: "Chrome", description: "A browser", cores: 2, memory: 2_768_000_000 };
    const chrome = await created("Workspace", "chrome", declared);
    expect(chrome.inputs).not.toHaveProperty("resourceFieldsChanging");

    const memory = await check("Workspace", "chrome", chrome.inputs, { ...declared, memory: 4_000_000_000 });
    expect(memory).not.toHaveProperty("resourceFieldsChanging");
    const sent = emulator.requests.length;
    const planned = await updated("Workspace", "chrome", chrome, memory, true);
    expect(emulator.requests.length).toBe(sent);
    expect(planned).toMatchObject({ imageId: chrome.id, memory: 4_000_000_000, resourceFieldsChanging: ["memory"] });
    const description = await updated(
      "Workspace",
      "chrome",
      chrome,
      await check("Workspace", "chrome", chrome.inputs, { ...declared, description: "The browser" }),
      true,
    );
    expect(description.resourceFieldsChanging).toEqual([]);

    const refused = await verdicts("Workspace", "chrome", planned, IMAGES);
    expect(refused).toEqual([
      {
        level: "mandatory",
        message: expect.stringContaining(
          "Workspace 'chrome' cannot be updated with this API key: update calls update_image (this change sets memory, compute-related), which needs 'Images Modify Resources'",
        ),
      },
    ]);
    expect(await verdicts("Workspace", "chrome", description, IMAGES)).toEqual([]);

    // The update itself returns Kasm's record: no state keeps the note.
    const applied = await updated("Workspace", "chrome", chrome, memory, false);
    expect(applied).toMatchObject({ imageId: chrome.id, memory: 4_000_000_000 });
    expect(applied).not.toHaveProperty("resourceFieldsChanging");
    // Judged on the state after the change: this run sends nothing more, nothing to refuse.
    expect(await verdicts("Workspace", "chrome", applied, IMAGES)).toEqual([]);
  });

  it("a CastConfig: the planned outputs say whether the update moves it between groups; a move needs Groups Modify", async () => {
    const groupIds: Record<string, string> = {};
    for (const name of ["guests", "visitors"]) groupIds[name] = (await created("Group", name, { name, priority: 50 })).id;
    const image = await created("Workspace", "kiosk-image", { name: "kasmweb/kiosk:1.16.0", friendlyName: "Kiosk" });
    const declared = { castingConfigName: "Kiosk", key: "kiosk", imageId: image.id, groupId: groupIds.guests };
    const kiosk = await created("CastConfig", "kiosk", declared);

    const move = await check("CastConfig", "kiosk", kiosk.inputs, { ...declared, groupId: groupIds.visitors });
    expect(move).not.toHaveProperty("groupChanging");
    const moving = await updated("CastConfig", "kiosk", kiosk, move, true);
    expect(moving.groupChanging).toBe(true);
    const staying = await updated("CastConfig", "kiosk", kiosk, await check("CastConfig", "kiosk", kiosk.inputs, { ...declared, allowResume: true }), true);
    expect(staying.groupChanging).toBe(false);

    const refused = await verdicts("CastConfig", "kiosk", moving, CASTING);
    expect(refused).toEqual([
      {
        level: "mandatory",
        message: expect.stringMatching(/CastConfig 'kiosk' cannot be updated with this API key: update calls update_cast_config.*'Groups Modify'/),
      },
    ]);
    expect(await verdicts("CastConfig", "kiosk", staying, CASTING)).toEqual([]);
    expect(await updated("CastConfig", "kiosk", kiosk, move, false)).not.toHaveProperty("groupChanging");
  });
});
