/**
 * The native provider's gRPC server driven directly, as the engine drives it, without the Pulumi
 * CLI (test/cli/native-yaml.test.ts runs it through the CLI): the schema, Configure's answer,
 * secrets wrapped on the way out, a preview's create that sends nothing, the field-level diff, an
 * import's read, and a check failure on a secret that does not name it.
 */
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KASM_KINDS, SECRET_INPUTS } from "../../catalogue/kinds";
import { UNKNOWN } from "../../catalogue/values";
import { kinds } from "../../provider";
import { serveNativeProvider, type NativeServer } from "../../provider/native/server";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";

const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const secret = (value: unknown) => ({ ...SECRET, value });
const urnOf = (kind: string, name: string) => `urn:pulumi:dev::native::kasm:index:${kind}::${name}`;
const struct = (value: Record<string, unknown>) => structproto.Struct.fromJavaScript(value as Record<string, structproto.JavaScriptValue>);

describe("the native provider's gRPC server", () => {
  let emulator: TestEmulator;
  let server: NativeServer;
  let client: InstanceType<typeof provrpc.ResourceProviderClient>;
  /** One unary call, promised. */
  const call = <Req, Res>(method: string, request: Req): Promise<Res> =>
    new Promise((resolve, reject) => (client as unknown as Record<string, Function>)[method](request, (error: Error | null, response: Res) => (error ? reject(error) : resolve(response))));

  beforeAll(async () => {
    emulator = await startTestEmulator({}, { apiNames: "spec" });
    server = await serveNativeProvider({ version: "1.2.3", kinds, engineAddress: undefined, env: {} });
    client = new provrpc.ResourceProviderClient(`127.0.0.1:${server.port}`, grpc.credentials.createInsecure());
    const configured = await call<provproto.ConfigureRequest, provproto.ConfigureResponse>(
      "configure",
      new provproto.ConfigureRequest().setArgs(struct({ baseUrl: emulator.url, apiKey: ADMIN.key, apiKeySecret: secret(ADMIN.secret), maxRetries: 0 })),
    );
    expect([configured.getAcceptsecrets(), configured.getSupportspreview()]).toEqual([true, true]);
  });
  afterAll(async () => {
    client?.close();
    await server?.close();
    await emulator?.close();
  });

  it("describes every kind as kasm:index:<Kind>: secret inputs marked, replacing inputs marked, no connection input", async () => {
    const schema = JSON.parse((await call<provproto.GetSchemaRequest, provproto.GetSchemaResponse>("getSchema", new provproto.GetSchemaRequest())).getSchema());
    expect(schema.version).toBe("1.2.3");
    // The generated SDKs carry the schema's version (supportPack); Go's generator needs its import path.
    expect(schema).toMatchObject({ meta: { supportPack: true }, language: { go: { importBasePath: "pulumi-kasm.local/sdk/go/kasm" } } });
    expect(Object.keys(schema.resources).sort()).toEqual(KASM_KINDS.map((kind) => `kasm:index:${kind}`).sort());
    for (const [kind, names] of Object.entries(SECRET_INPUTS)) for (const name of names) expect(schema.resources[`kasm:index:${kind}`].inputProperties[name].secret, `${kind}.${name}`).toBe(true);
    expect(schema.resources["kasm:index:LicenseActivation"].inputProperties.activationKey.willReplaceOnChanges).toBe(true);
    expect(schema.resources["kasm:index:User"].properties.userId).toMatchObject({ type: "string" });
    expect(Object.values(schema.resources).some((r) => "connection" in (r as { inputProperties: object }).inputProperties)).toBe(false);
    expect(schema.config.variables.apiKeySecret.secret).toBe(true);
  });

  it("previews a create with nothing sent, creates with the password kept secret, diffs field by field, imports and deletes", async () => {
    const urn = urnOf("User", "ada");
    const news = struct({ username: "ada", password: secret("pw-0123456789"), firstName: "Ada" });
    const checked = await call<provproto.CheckRequest, provproto.CheckResponse>("check", new provproto.CheckRequest().setUrn(urn).setOlds(struct({})).setNews(news));
    expect(checked.getFailuresList()).toEqual([]);
    expect(checked.getInputs()?.toJavaScript()).toMatchObject({ username: "ada", password: secret("pw-0123456789") });

    const sent = emulator.requests.length;
    const preview = await call<provproto.CreateRequest, provproto.CreateResponse>("create", new provproto.CreateRequest().setUrn(urn).setProperties(checked.getInputs()).setPreview(true));
    expect(preview.getProperties()?.toJavaScript()).toMatchObject({ userId: UNKNOWN, realm: UNKNOWN, password: secret("pw-0123456789") });
    expect(emulator.requests.length).toBe(sent);

    const created = await call<provproto.CreateRequest, provproto.CreateResponse>("create", new provproto.CreateRequest().setUrn(urn).setProperties(checked.getInputs()));
    const state = created.getProperties()?.toJavaScript() ?? {};
    expect(state).toMatchObject({ userId: created.getId(), username: "ada", password: secret("pw-0123456789") });

    const diff = await call<provproto.DiffRequest, provproto.DiffResponse>(
      "diff",
      new provproto.DiffRequest().setUrn(urn).setId(created.getId()).setOlds(created.getProperties()).setNews(struct({ username: "ADA", password: secret("pw-0123456789"), firstName: "Augusta" })),
    );
    expect(diff.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(diff.getHasdetaileddiff()).toBe(true);
    // The username differs only in case, which names the same user: not a change.
    expect([...diff.getDetaileddiffMap().entries()].map(([field, detail]) => [field, detail.getKind()])).toEqual([["firstName", provproto.PropertyDiff.Kind.UPDATE]]);

    const imported = await call<provproto.ReadRequest, provproto.ReadResponse>("read", new provproto.ReadRequest().setUrn(urnOf("User", "again")).setId(created.getId()));
    expect(imported.getId()).toBe(created.getId());
    // Every input Kasm holds; the password (write-only) and the provider flags are not among them.
    expect(imported.getInputs()?.toJavaScript()).toEqual({ username: "ada", firstName: "Ada", locked: false, disabled: false });
    // A program that declares fewer fields than the import read (an `import` option's): no change, Kasm keeps the rest.
    const fewer = await call<provproto.DiffRequest, provproto.DiffResponse>(
      "diff",
      new provproto.DiffRequest().setUrn(urn).setId(created.getId()).setOlds(imported.getInputs()).setNews(struct({ username: "ada", firstName: "Ada" })),
    );
    expect(fewer.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);

    await call("delete", new provproto.DeleteRequest().setUrn(urn).setId(created.getId()).setProperties(created.getProperties()));
    const gone = await call<provproto.ReadRequest, provproto.ReadResponse>("read", new provproto.ReadRequest().setUrn(urn).setId(created.getId()).setProperties(created.getProperties()));
    expect(gone.getId()).toBe("");
  });

  it("refuses a bad secret input without naming the property, whose value the CLI would print", async () => {
    const checked = await call<provproto.CheckRequest, provproto.CheckResponse>(
      "check",
      new provproto.CheckRequest().setUrn(urnOf("User", "bad")).setOlds(struct({})).setNews(struct({ username: "bad", password: secret("") })),
    );
    const failures = checked.getFailuresList().map((failure) => [failure.getProperty(), failure.getReason()]);
    expect(failures).toEqual([["", expect.stringContaining("password must not be empty")]]);
  });
});
