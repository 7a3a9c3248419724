/**
 * Drive Pulumi's real dynamic-provider host (`@pulumi/pulumi/cmd/dynamic-provider`) over gRPC, the
 * way the engine does: Configure, Check, Diff, Create, Read, Update, Delete. Resources travel as
 * protobuf Structs with the serialized provider under `__provider`, exactly as in `pulumi up`.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { createInterface } from "node:readline";
import * as grpc from "@grpc/grpc-js";
import * as structproto from "google-protobuf/google/protobuf/struct_pb";
import * as provrpc from "@pulumi/pulumi/proto/provider_grpc_pb";
import * as provproto from "@pulumi/pulumi/proto/provider_pb";

const HOST = require.resolve("@pulumi/pulumi/cmd/dynamic-provider");

/** Properties as plain JSON (what a Struct carries). */
export type Props = Record<string, unknown>;

/** The host's answer to Check. */
export interface CheckResult {
  inputs: Props;
  failures: { property: string; reason: string }[];
}

/** The host's answer to Diff. */
export interface DiffResult {
  changes: "none" | "some" | "unknown";
  replaces: string[];
  deleteBeforeReplace: boolean;
}

/** A gRPC error from the host, with the initialisation-failure detail when the provider gave one. */
export class HostError extends Error {
  constructor(
    message: string,
    readonly code: number,
    readonly initFailure?: { id: string; properties: Props; reasons: string[] },
  ) {
    super(message);
  }
}

/** Drop `undefined` (a Struct cannot hold it) by a JSON round trip. */
function struct(value: Props): structproto.Struct {
  return structproto.Struct.fromJavaScript(JSON.parse(JSON.stringify(value)));
}

/** A diff or update request: the resource and its old and new properties. */
function change<Request extends provproto.DiffRequest | provproto.UpdateRequest>(req: Request, urn: string, id: string, olds: Props, news: Props): Request {
  req.setUrn(urn);
  req.setId(id);
  req.setOlds(struct(olds));
  req.setNews(struct(news));
  return req;
}

function toHostError(error: grpc.ServiceError): HostError {
  let initFailure: HostError["initFailure"];
  const raw = error.metadata?.get("grpc-status-details-bin")?.[0];
  if (raw) {
    // The host packs ErrorResourceInitFailed into a google.rpc.Status in this metadata entry.
    const statusproto = require("@pulumi/pulumi/proto/status_pb");
    const status = statusproto.Status.deserializeBinary(raw as Buffer);
    for (const any of status.getDetailsList()) {
      const detail = provproto.ErrorResourceInitFailed.deserializeBinary(any.getValue_asU8());
      initFailure = {
        id: detail.getId(),
        properties: detail.getProperties()?.toJavaScript() ?? {},
        reasons: detail.getReasonsList(),
      };
    }
  }
  return new HostError(error.details || error.message, error.code, initFailure);
}

/** A running dynamic-provider host and a client for it. */
export class ProviderHost {
  private constructor(
    private readonly child: ChildProcess,
    private readonly client: provrpc.ResourceProviderClient,
    /** What the host printed on stderr (errors of check/diff/read/delete land here). */
    readonly stderr: string[],
  ) {}

  /**
   * Start a host in `cwd` (default: the current folder), where the serialized providers'
   * `require("pulumi-kasm/provider")` must resolve, with extra environment; `script` is the
   * host's script (default: `@pulumi/pulumi/cmd/dynamic-provider` as this package resolves it);
   * `engineAddress` is the Engine service the host's provider logs to (its last argument, as the
   * engine gives it; default: an address where nothing listens, so warnings go to stderr).
   */
  static async start(options: { cwd?: string; env?: NodeJS.ProcessEnv; script?: string; engineAddress?: string } = {}): Promise<ProviderHost> {
    const child = spawn(process.execPath, [options.script ?? HOST, options.engineAddress ?? "127.0.0.1:1"], {
      cwd: options.cwd ?? process.cwd(),
      env: { ...process.env, ...options.env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    const stderr: string[] = [];
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => stderr.push(chunk));
    const port = await new Promise<string>((resolve, reject) => {
      const lines = createInterface({ input: child.stdout! });
      lines.once("line", (line) => resolve(line.trim()));
      child.once("exit", (code) => reject(new Error(`dynamic-provider host exited with ${code}: ${stderr.join("")}`)));
    });
    const client = new provrpc.ResourceProviderClient(`127.0.0.1:${port}`, grpc.credentials.createInsecure());
    return new ProviderHost(child, client, stderr);
  }

  private unary<Req, Res>(method: string, request: Req): Promise<Res> {
    return new Promise((resolve, reject) => {
      (this.client as any)[method](request, (error: grpc.ServiceError | null, response: Res) => (error ? reject(toHostError(error)) : resolve(response)));
    });
  }

  /** Configure with fully qualified keys (`kasm:baseUrl`); values marked secret are wrapped as the engine wraps them. */
  async configure(config: Record<string, string>, secretKeys: string[] = []): Promise<void> {
    const args: Props = {};
    for (const [key, value] of Object.entries(config)) {
      args[key] = secretKeys.includes(key) ? { "4dabf18193072939515e22adb298388d": "1b47061264138c4ac30d75fd1eb44270", value } : value;
    }
    const req = new provproto.ConfigureRequest();
    req.setArgs(struct(args));
    await this.unary("configure", req);
  }

  async check(urn: string, olds: Props, news: Props): Promise<CheckResult> {
    const req = new provproto.CheckRequest();
    req.setUrn(urn);
    req.setOlds(struct(olds));
    req.setNews(struct(news));
    const res = await this.unary<provproto.CheckRequest, provproto.CheckResponse>("check", req);
    return {
      inputs: res.getInputs()?.toJavaScript() ?? {},
      failures: res.getFailuresList().map((f) => ({ property: f.getProperty(), reason: f.getReason() })),
    };
  }

  async diff(urn: string, id: string, olds: Props, news: Props): Promise<DiffResult> {
    const req = change(new provproto.DiffRequest(), urn, id, olds, news);
    const res = await this.unary<provproto.DiffRequest, provproto.DiffResponse>("diff", req);
    const changes = res.getChanges();
    const C = provproto.DiffResponse.DiffChanges;
    return {
      changes: changes === C.DIFF_SOME ? "some" : changes === C.DIFF_NONE ? "none" : "unknown",
      replaces: res.getReplacesList(),
      deleteBeforeReplace: res.getDeletebeforereplace(),
    };
  }

  async create(urn: string, properties: Props): Promise<{ id: string; properties: Props }> {
    const req = new provproto.CreateRequest();
    req.setUrn(urn);
    req.setProperties(struct(properties));
    const res = await this.unary<provproto.CreateRequest, provproto.CreateResponse>("create", req);
    return { id: res.getId(), properties: res.getProperties()?.toJavaScript() ?? {} };
  }

  async read(urn: string, id: string, properties: Props): Promise<{ id: string; properties: Props; inputs?: Props }> {
    const req = new provproto.ReadRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(struct(properties));
    const res = await this.unary<provproto.ReadRequest, provproto.ReadResponse>("read", req);
    return { id: res.getId(), properties: res.getProperties()?.toJavaScript() ?? {}, inputs: res.getInputs()?.toJavaScript() };
  }

  async update(urn: string, id: string, olds: Props, news: Props): Promise<{ properties: Props }> {
    const req = change(new provproto.UpdateRequest(), urn, id, olds, news);
    const res = await this.unary<provproto.UpdateRequest, provproto.UpdateResponse>("update", req);
    return { properties: res.getProperties()?.toJavaScript() ?? {} };
  }

  async delete(urn: string, id: string, properties: Props): Promise<void> {
    const req = new provproto.DeleteRequest();
    req.setUrn(urn);
    req.setId(id);
    req.setProperties(struct(properties));
    await this.unary("delete", req);
  }

  async stop(): Promise<void> {
    this.client.close();
    // A process killed by a signal keeps exitCode null and sets signalCode: either means it is gone.
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise((resolve) => this.child.once("close", resolve)); // "close": its output has all arrived
      this.child.kill("SIGTERM");
      await exited;
    }
  }
}
