/**
 * The native provider's gRPC server driven directly, as the engine drives it, without the Pulumi
 * CLI (test/cli/native-yaml.test.ts runs it through the CLI): the schema, Configure's answer,
 * secrets wrapped on the way out, a preview's create that sends nothing, the field-level diff, an
 * import's read, a check failure on a secret that does not name it, the refusal of an existing
 * object naming the `pulumi import` command for an interrupted up, and the lookups (Invoke):
 * their answers, secrets, failures and functions in the schema.
 */
import * as provproto from "@pulumi/pulumi/proto/provider_pb";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { KASM_KINDS } from "../../permissions/kinds";
import { LOOKUP_NAMES } from "../../permissions/lookups";
import { UNKNOWN } from "../../permissions/planned-calls";
import { kinds } from "../../provider";
import { FUNCTION_TOKENS } from "../../provider/native/functions";
import { ADMIN, startTestEmulator, type TestEmulator } from "../helpers/emulator";
import { startNativeProvider, struct, type NativeProviderClient } from "../helpers/native-provider";

/** The inputs of each kind that hold a secret, as a user expects them kept: any change to this list is deliberate. */
const SECRET_INPUTS = {
  User: ["password"],
  LicenseActivation: ["activationKey"],
  EgressGateway: ["config"],
  EgressCredential: ["password", "wireguardPrivateKey", "meshKey", "customCredential"],
  Workspace: ["registryUsername", "registryPassword"],
};

const SECRET = { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270" };
const secret = (value: unknown) => ({ ...SECRET, value });
const urnOf = (kind: string, name: string) => `urn:pulumi:dev::native::kasm:index:${kind}::${name}`;

describe("the native provider's gRPC server", () => {
  let emulator: TestEmulator;
  let provider: NativeProviderClient;
  const call = <Req, Res>(method: string, request: Req) => provider.call<Req, Res>(method, request);

  beforeAll(async () => {
    emulator = await startTestEmulator({ zones: [{ zone_name: "default" }, { zone_name: "eu" }], users: [{ username: "grace" }] }, { apiNames: "spec" });
    provider = await startNativeProvider();
    const configured = await call<provproto.ConfigureRequest, provproto.ConfigureResponse>(
      "configure",
      new provproto.ConfigureRequest().setArgs(struct({ baseUrl: emulator.url, apiKey: ADMIN.key, apiKeySecret: secret(ADMIN.secret), maxRetries: 0 })),
    );
    expect([configured.getAcceptsecrets(), configured.getSupportspreview()]).toEqual([true, true]);
  });
  afterAll(async () => {
    await provider?.close();
    await emulator?.close();
  });

  it("describes every kind as kasm:index:<Kind>: secret inputs marked, replacing inputs marked, no connection input", async () => {
    const schema = JSON.parse((await call<provproto.GetSchemaRequest, provproto.GetSchemaResponse>("getSchema", new provproto.GetSchemaRequest())).getSchema());
    expect(schema.version).toBe("1.2.3");
    // The generated SDKs carry the schema's version (supportPack); Go's generator needs its import path.
    expect(schema).toMatchObject({ meta: { supportPack: true }, language: { go: { importBasePath: "pulumi-kasm.local/sdk/go/kasm" } } });
    expect(Object.keys(schema.resources).sort()).toEqual(KASM_KINDS.map((kind) => `kasm:index:${kind}`).sort());
    for (const [kind, names] of Object.entries(SECRET_INPUTS))
      for (const name of names) expect(schema.resources[`kasm:index:${kind}`].inputProperties[name].secret, `${kind}.${name}`).toBe(true);
    // The kinds' field declarations are the one list of secret inputs: they name exactly these, no more and no
    // fewer, and the schema marks exactly those.
    const declaredSecrets = Object.fromEntries(
      KASM_KINDS.map((kind) => [kind, [...(kinds[kind].manifest.secrets ?? [])]]).filter(([, names]) => names.length > 0),
    );
    expect(declaredSecrets).toEqual(SECRET_INPUTS);
    const markedSecret = (resource: { inputProperties: Record<string, { secret?: boolean }> }) =>
      Object.entries(resource.inputProperties).flatMap(([name, property]) => (property.secret === true ? [name] : []));
    const schemaSecrets = Object.fromEntries(
      Object.entries(schema.resources as Record<string, { inputProperties: Record<string, { secret?: boolean }> }>)
        .map(([token, resource]) => [token.replace("kasm:index:", ""), markedSecret(resource)])
        .filter(([, names]) => names.length > 0),
    );
    expect(schemaSecrets).toEqual(SECRET_INPUTS);
    expect(schema.resources["kasm:index:LicenseActivation"].inputProperties.activationKey.willReplaceOnChanges).toBe(true);
    expect(schema.resources["kasm:index:User"].properties.userId).toMatchObject({ type: "string" });
    expect(Object.values(schema.resources).some((r) => "connection" in (r as { inputProperties: object }).inputProperties)).toBe(false);
    expect(schema.config.variables.apiKeySecret.secret).toBe(true);
  });

  it("previews a create with nothing sent, creates with the password kept secret, diffs field by field, imports and deletes", async () => {
    const urn = urnOf("User", "ada");
    const news = struct({ username: "ada", password: secret("pw-0123456789"), firstName: "Ada" });
    const checked = await call<provproto.CheckRequest, provproto.CheckResponse>(
      "check",
      new provproto.CheckRequest().setUrn(urn).setOlds(struct({})).setNews(news),
    );
    expect(checked.getFailuresList()).toEqual([]);
    expect(checked.getInputs()?.toJavaScript()).toMatchObject({ username: "ada", password: secret("pw-0123456789") });

    const sent = emulator.requests.length;
    const preview = await call<provproto.CreateRequest, provproto.CreateResponse>(
      "create",
      new provproto.CreateRequest().setUrn(urn).setProperties(checked.getInputs()).setPreview(true),
    );
    expect(preview.getProperties()?.toJavaScript()).toMatchObject({ userId: UNKNOWN, realm: UNKNOWN, password: secret("pw-0123456789") });
    expect(emulator.requests.length).toBe(sent);

    const created = await call<provproto.CreateRequest, provproto.CreateResponse>(
      "create",
      new provproto.CreateRequest().setUrn(urn).setProperties(checked.getInputs()),
    );
    const state = created.getProperties()?.toJavaScript() ?? {};
    expect(state).toMatchObject({ userId: created.getId(), username: "ada", password: secret("pw-0123456789") });

    const diff = await call<provproto.DiffRequest, provproto.DiffResponse>(
      "diff",
      new provproto.DiffRequest()
        .setUrn(urn)
        .setId(created.getId())
        .setOlds(created.getProperties())
        .setNews(struct({ username: "ADA", password: secret("pw-0123456789"), firstName: "Augusta" })),
    );
    expect(diff.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_SOME);
    expect(diff.getHasdetaileddiff()).toBe(true);
    // The username differs only in case, which names the same user: not a change.
    expect([...diff.getDetaileddiffMap().entries()].map(([field, detail]) => [field, detail.getKind()])).toEqual([
      ["firstName", provproto.PropertyDiff.Kind.UPDATE],
    ]);

    const imported = await call<provproto.ReadRequest, provproto.ReadResponse>(
      "read",
      new provproto.ReadRequest().setUrn(urnOf("User", "again")).setId(created.getId()),
    );
    expect(imported.getId()).toBe(created.getId());
    // Every input Kasm holds; the password (write-only) and the provider flags are not among them.
    expect(imported.getInputs()?.toJavaScript()).toEqual({ username: "ada", firstName: "Ada", locked: false, disabled: false });
    // A program that declares fewer fields than the import read (an `import` option's): no change, Kasm keeps the rest.
    const fewer = await call<provproto.DiffRequest, provproto.DiffResponse>(
      "diff",
      new provproto.DiffRequest()
        .setUrn(urn)
        .setId(created.getId())
        .setOlds(imported.getInputs())
        .setNews(struct({ username: "ada", firstName: "Ada" })),
    );
    expect(fewer.getChanges()).toBe(provproto.DiffResponse.DiffChanges.DIFF_NONE);

    await call("delete", new provproto.DeleteRequest().setUrn(urn).setId(created.getId()).setProperties(created.getProperties()));
    const gone = await call<provproto.ReadRequest, provproto.ReadResponse>(
      "read",
      new provproto.ReadRequest().setUrn(urn).setId(created.getId()).setProperties(created.getProperties()),
    );
    expect(gone.getId()).toBe("");
  });

  it("refuses a bad secret input without naming the property, whose value the CLI would print", async () => {
    const checked = await call<provproto.CheckRequest, provproto.CheckResponse>(
      "check",
      new provproto.CheckRequest()
        .setUrn(urnOf("User", "bad"))
        .setOlds(struct({}))
        .setNews(struct({ username: "bad", password: secret("") })),
    );
    const failures = checked.getFailuresList().map((failure) => [failure.getProperty(), failure.getReason()]);
    expect(failures).toEqual([["", expect.stringContaining("password must not be empty")]]);
  });

  it("refuses the create of a user Kasm has, naming the pulumi import command with its id for an up interrupted while creating it; none for a child resource", async () => {
    const grace = await emulator.userId("grace");
    const refusal = async (urn: string, on: NativeProviderClient = provider) => {
      const checked = await on.call<provproto.CheckRequest, provproto.CheckResponse>(
        "check",
        new provproto.CheckRequest()
          .setUrn(urn)
          .setOlds(struct({}))
          .setNews(struct({ username: "grace", password: secret("pw-never-shown-77") })),
      );
      const reasons = checked.getFailuresList().map((failure) => failure.getReason());
      expect(reasons).toHaveLength(1);
      expect(reasons[0]).not.toContain("pw-never-shown-77");
      return reasons[0];
    };
    const top = await refusal(urnOf("User", "grace"));
    expect(top).toContain(`User 'grace' already exists in Kasm at ${emulator.url} (user ${grace})`);
    expect(top).toContain(
      `If an earlier \`pulumi up\` was interrupted while creating it (the next \`up\` lists it as "interrupted while creating"), ` +
        `\`pulumi import kasm:index:User grace ${grace} --yes --protect=false --generate-code=false\` takes it into the state as it is (or set \`adopt: true\`), ` +
        "and `pulumi refresh --yes --clear-pending-creates` drops the pending create that `up` left.",
    );
    // A name the shell would split is quoted.
    expect(await refusal(urnOf("User", "grace hopper"))).toContain(`\`pulumi import kasm:index:User 'grace hopper' ${grace} --yes`);
    // A child's URN does not name its parent, which pulumi import would need: adopt only.
    const child = await refusal("urn:pulumi:dev::native::my:index:Team$kasm:index:User::grace");
    expect(child).not.toContain("pulumi import");
    expect(child).toContain("`adopt: true` takes it over too");

    // On an explicit provider, the command names it (pulumi import would use the default provider otherwise).
    const staging = await startNativeProvider();
    try {
      const providerUrn = "urn:pulumi:dev::native::pulumi:providers:kasm::staging";
      await staging.call(
        "configure",
        new provproto.ConfigureRequest()
          .setUrn(providerUrn)
          .setName("staging")
          .setArgs(struct({ baseUrl: emulator.url, apiKey: ADMIN.key, apiKeySecret: secret(ADMIN.secret), maxRetries: 0 })),
      );
      expect(await refusal(urnOf("User", "grace"), staging)).toContain(
        `\`pulumi import kasm:index:User grace ${grace} --yes --protect=false --generate-code=false --provider staging=${providerUrn}\``,
      );
    } finally {
      await staging.close();
    }
  });

  /** An invoke of `kasm:index:<fn>` with `args`. */
  const invoke = (fn: string, args: Record<string, unknown>) =>
    call<provproto.InvokeRequest, provproto.InvokeResponse>("invoke", new provproto.InvokeRequest().setTok(`kasm:index:${fn}`).setArgs(struct(args)));
  /** An invoke's failures, as [argument, reason]. */
  const failuresOf = (response: provproto.InvokeResponse) => response.getFailuresList().map((failure) => [failure.getProperty(), failure.getReason()]);

  it("invokes getZone by name: the zone's record, camelCased; a name given secret makes the whole answer secret", async () => {
    const zones: { zone_id: string; zone_name: string }[] = (await emulator.specCall("get_zones", {})).body.zones;
    const eu = zones.find((zone) => zone.zone_name === "eu")!;
    const found = await invoke("getZone", { name: "eu" });
    expect(failuresOf(found)).toEqual([]);
    expect(found.getReturn()?.toJavaScript()).toMatchObject({ zoneId: eu.zone_id, zoneName: "eu" });

    const hidden = (await invoke("getZone", { name: secret("eu") })).getReturn()?.toJavaScript() ?? {};
    expect(hidden.zoneId).toEqual(secret(eu.zone_id));
    expect(hidden.zoneName).toEqual(secret("eu"));
  });

  it("invokes getUser: its secret field comes back as a secret, the rest plain; getUsers wraps it in each record", async () => {
    const user = (await invoke("getUser", { username: "grace" })).getReturn()?.toJavaScript() ?? {};
    expect(user).toMatchObject({ username: "grace", userId: expect.stringMatching(/^[0-9a-f]{32}$/) });
    expect(user.hash).toEqual(secret(expect.stringMatching(/^[0-9a-f]{16,}$/)));

    const users = ((await invoke("getUsers", { usernameContains: "grac" })).getReturn()?.toJavaScript() ?? {}) as { users: Record<string, unknown>[] };
    expect(users.users).toHaveLength(1);
    expect(users.users[0]).toMatchObject({ username: "grace", userId: user.userId, hash: secret(expect.any(String)) });
  });

  it("fails a lookup that finds nothing, naming what it looked for", async () => {
    await expect(invoke("getZone", { name: "nowhere" })).rejects.toThrow(/getZone: Kasm has no zone "nowhere"/);
    // get_user answers a bare "Invalid Request" for a user it does not have: the lookup says which.
    await expect(invoke("getUser", { username: "nobody" })).rejects.toThrow(/getUser: Kasm has no user "nobody"/);
  });

  it("answers bad arguments with failures naming the argument, before sending anything", async () => {
    const sent = emulator.requests.length;
    expect(failuresOf(await invoke("getZone", { name: 42 }))).toEqual([["name", "name must be text (got a whole number)"]]);
    expect(failuresOf(await invoke("getZone", {}))).toEqual([["name", expect.stringContaining("name must be text (got nothing): it is required")]]);
    expect(failuresOf(await invoke("getUsers", { locked: "yes" }))).toEqual([["locked", "locked must be true or false (got text)"]]);
    expect(failuresOf(await invoke("getImage", {}))).toEqual([["name", "give one of name or friendlyName"]]);
    expect(failuresOf(await invoke("getZone", { zoneName: "eu" }))).toEqual([
      ["name", expect.stringContaining("it is required")],
      ["", "zoneName is not an argument of getZone: check the spelling"],
    ]);
    expect(emulator.requests.length).toBe(sent);
    await expect(invoke("getNothing", {})).rejects.toThrow(/unknown function kasm:index:getNothing: the kasm provider serves kasm:index:getUser, /);
  });

  it("describes each lookup as a function of the schema, and serves exactly the functions the schema lists", async () => {
    const schema = JSON.parse((await call<provproto.GetSchemaRequest, provproto.GetSchemaResponse>("getSchema", new provproto.GetSchemaRequest())).getSchema());
    const tokens = Object.keys(schema.functions).sort();
    expect(tokens).toEqual(LOOKUP_NAMES.map((name) => `kasm:index:${name}`).sort());
    expect([...FUNCTION_TOKENS.keys()].sort()).toEqual(tokens);
    for (const [token, fn] of Object.entries<{ inputs?: { properties: object; required: string[] }; outputs: { type: string; properties: object } }>(
      schema.functions,
    )) {
      expect(fn.outputs.type, token).toBe("object");
      expect(Object.keys(fn.outputs.properties).length, token).toBeGreaterThan(0);
      if (fn.inputs) expect(Object.keys(fn.inputs.properties).length, token).toBeGreaterThan(0);
      // Every function of the schema is served: its arguments may fail, or (a released Kasm's lookups) its vocabulary, never its token.
      const answered = await invoke(token.slice("kasm:index:".length), {}).then(
        () => "answered",
        (error: Error) => error.message,
      );
      expect(answered, token).not.toMatch(/unknown function/);
    }
    expect(schema.functions["kasm:index:getZone"]).toMatchObject({
      inputs: { properties: { name: { type: "string" } }, required: ["name"] },
      outputs: { properties: { zoneId: { type: "string" } } },
    });
    expect(schema.functions["kasm:index:getUser"].outputs.properties.hash).toEqual({ type: "string", secret: true, description: expect.any(String) });
    expect(schema.functions["kasm:index:getServer"].outputs.properties.connectionPassword).toEqual({
      type: "string",
      secret: true,
      description: expect.any(String),
    });
    expect(schema.functions["kasm:index:getUsers"].outputs).toEqual({
      type: "object",
      properties: {
        users: { type: "array", items: { $ref: "#/types/kasm:index:GetUsersUser" }, description: "Every user matching the filters, across all pages." },
      },
      required: ["users"],
    });
    expect(schema.types["kasm:index:GetUsersUser"].properties.hash).toEqual({ type: "string", secret: true, description: expect.any(String) });
    expect(schema.functions["kasm:index:getZones"].inputs).toBeUndefined();
  });
});
