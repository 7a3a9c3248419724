/**
 * Helpers for provider tests through the real dynamic-provider host: the serialized provider of a
 * kind (as `dynamic.Resource` makes it), and a host configured against an emulator.
 */
import * as pulumi from "@pulumi/pulumi";
import { z } from "zod";
import { kindProvider, typeToken } from "../../sdk/provider";
import { kinds, type KindName } from "../../provider";
import { outputNames } from "../../provider/native/outputs";
import { ProviderHost, type Props } from "./host";
import { ADMIN, type TestEmulator } from "./emulator";
import { API_NAMES_CONFIG } from "./vocabulary";

const serialized = new Map<string, Promise<string>>();

/** The `__provider` text of a kind, serialized as `pulumi.dynamic.Resource` serializes it. */
export function serializedProvider(kind: KindName): Promise<string> {
  let text = serialized.get(kind);
  if (!text) {
    const provider = kindProvider(kind);
    text = pulumi.runtime.serializeFunction(() => provider, { allowSecrets: true }).then((r) => r.text);
    serialized.set(kind, text);
  }
  return text;
}

/** A URN for a resource of a kind, as the engine would send it. */
export function urnOf(kind: KindName, name: string): string {
  return `urn:pulumi:test::kasm-test::${typeToken(kind)}::${name}`;
}

/** Client settings that keep retries short in tests. */
export const FAST_RETRIES = { "kasm:maxRetries": "2", "kasm:retryBaseDelayMs": "10", "kasm:retryMaxDelayMs": "50" };

/**
 * The one read a change makes of its installation before the plan (framework/connections.ts)
 * is off in the hosts of the kinds' tests, which count each kind's own calls; it has tests of its
 * own (installation-check.test.ts), which turn it on.
 */
export const WITHOUT_INSTALLATION_CHECK = { "kasm:checkBeforeChanges": "false" };

/**
 * Start a host and configure it against `emulator` with `creds` (default: the admin key), in this
 * run's wire vocabulary (see `vocabulary.ts`) unless `config` says otherwise.
 */
export async function hostFor(
  emulator: TestEmulator,
  creds: { key: string; secret: string } = ADMIN,
  config: Readonly<Record<string, string>> = {},
): Promise<ProviderHost> {
  const host = await ProviderHost.start();
  await host.configure(
    {
      "kasm:baseUrl": emulator.url,
      "kasm:apiKey": creds.key,
      "kasm:apiKeySecret": creds.secret,
      ...FAST_RETRIES,
      ...WITHOUT_INSTALLATION_CHECK,
      ...API_NAMES_CONFIG,
      ...config,
    },
    ["kasm:apiKeySecret"],
  );
  return host;
}

/**
 * Fail unless the outputs a kind computed are as its manifest declares them (each of its type, or
 * null where declared nullable): what the TypeScript SDK's types and the native package schema
 * promise. A create gives every output; an update or a read may keep a state that lacks some.
 */
export function expectDeclaredOutputs(kind: KindName, properties: Props, every: boolean): void {
  const declared = kinds[kind].manifest.outputs as unknown as z.ZodObject;
  const names = outputNames(kinds[kind]).filter((name) => every || name in properties);
  const computed = Object.fromEntries(names.map((name) => [name, properties[name]]));
  const checked = (every ? declared : declared.partial()).safeParse(computed);
  if (!checked.success) throw new Error(`${kind}: the outputs are not as its manifest declares them:\n${z.prettifyError(checked.error)}`);
}

/**
 * One resource driven through the host: check, then create/update/read/delete with the kind's
 * provider attached. The outputs of each create, update and read are held to the kind's declared
 * output schema ({@link expectDeclaredOutputs}).
 */
export class Driven {
  id = "";
  state: Props = {};

  constructor(
    readonly host: ProviderHost,
    readonly kind: KindName,
    readonly name: string,
  ) {}

  get urn(): string {
    return urnOf(this.kind, this.name);
  }

  async withProvider(props: Props): Promise<Props> {
    return { ...props, __provider: await serializedProvider(this.kind) };
  }

  async check(news: Props, olds: Props = {}) {
    return this.host.check(this.urn, await this.withProvider(olds), await this.withProvider(news));
  }

  async create(inputs: Props): Promise<Props> {
    const checked = await this.check(inputs);
    if (checked.failures.length) throw new Error(`check failed: ${JSON.stringify(checked.failures)}`);
    const { id, properties } = await this.host.create(this.urn, checked.inputs);
    expectDeclaredOutputs(this.kind, properties, true);
    this.id = id;
    this.state = properties;
    return properties;
  }

  async diff(news: Props) {
    return this.host.diff(this.urn, this.id, this.state, await this.withProvider(news));
  }

  async update(news: Props): Promise<Props> {
    const { properties } = await this.host.update(this.urn, this.id, this.state, await this.withProvider(news));
    expectDeclaredOutputs(this.kind, properties, false);
    this.state = properties;
    return properties;
  }

  async read() {
    const result = await this.host.read(this.urn, this.id, this.state);
    if (result.id) expectDeclaredOutputs(this.kind, result.properties, false);
    if (result.id) this.state = result.properties;
    return result;
  }

  async delete(): Promise<void> {
    await this.host.delete(this.urn, this.id, this.state);
  }
}
