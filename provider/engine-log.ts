/**
 * Warnings from a provider method to the user running `pulumi up`.
 *
 * Pulumi's dynamic-provider host gives providers no logging API, and `pulumi.log.warn` inside the
 * host has no engine connection (it only prints to stderr). But the engine starts every provider
 * plugin, the dynamic-provider host included, with the address of its own gRPC `Engine` service
 * as the last command-line argument, and that service's `Log` RPC is how native providers report
 * diagnostics. So {@link warn} sends a WARNING through `Engine.Log` at that address, and falls back
 * to a `warning: ...` line on stderr (which the engine shows as plugin output) when there is no
 * engine to reach, as when the host is driven by tests. Never pass a secret in a message.
 */
import path from "node:path";

/**
 * How a message names a resource: `UserSet staff`, by the name the program gave it; by `id` (its
 * Kasm id, or the set's) only for a state written before the name was kept (`name` undefined).
 */
export function labelFor(kind: string, name: string | undefined, id: string): string {
  return `${kind} ${name ?? id}`;
}

/** Where a warning went: the engine's diagnostics, or the process's stderr. */
export type WarningSink = "engine" | "stderr";

/**
 * Where a diagnostic goes: `engineAddress` (default: from the host's arguments), `urn` (the
 * resource the CLI shows it under; a native provider knows it, the dynamic-provider host does
 * not), `timeoutMs` (default 5000).
 */
export interface ReportOptions {
  readonly engineAddress?: string;
  readonly urn?: string;
  readonly timeoutMs?: number;
}

/** The engine address the host was started with: its last argument shaped `host:port`, if any. */
export function engineAddressFromArgv(argv: readonly string[] = process.argv): string | undefined {
  const last = argv.slice(2).at(-1);
  return last !== undefined && /^(\[[0-9a-fA-F:.]+\]|[A-Za-z0-9.-]+):\d{1,5}$/.test(last) ? last : undefined;
}

/**
 * Report a warning to the user. Resolves with where it went; never throws.
 *
 * @param message The text; never a secret.
 * @param options Where it goes (see {@link ReportOptions}).
 */
export function warn(message: string, options: ReportOptions = {}): Promise<WarningSink> {
  return report("warning", message, options);
}

/**
 * Tell the user something worth knowing that is not a problem (what a change does inside a set):
 * an INFO diagnostic, which the CLI shows with the resource's others. Resolves with where it went;
 * never throws.
 */
export function note(message: string, options: ReportOptions = {}): Promise<WarningSink> {
  return report("info", message, options);
}

async function report(severity: "warning" | "info", message: string, options: ReportOptions): Promise<WarningSink> {
  const address = options.engineAddress ?? engineAddressFromArgv();
  if (address) {
    try {
      await logToEngine(address, severity, message, options.urn, options.timeoutMs ?? 5000);
      return "engine";
    } catch {
      // No engine there (a test harness, or it went away): stderr is the next best place.
    }
  }
  process.stderr.write(`${severity}: ${message}\n`);
  return "stderr";
}

/** One `Engine.Log` call. */
async function logToEngine(address: string, severity: "warning" | "info", message: string, urn: string | undefined, timeoutMs: number): Promise<void> {
  // Loaded here, from @pulumi/pulumi's own dependencies, so that the generated client and the
  // credentials come from the same copy of grpc-js.
  const pulumiDir = path.dirname(require.resolve("@pulumi/pulumi/package.json"));
  const grpc = require(require.resolve("@grpc/grpc-js", { paths: [pulumiDir] })) as typeof import("@grpc/grpc-js");
  const engrpc = require("@pulumi/pulumi/proto/engine_grpc_pb") as typeof import("@pulumi/pulumi/proto/engine_grpc_pb");
  const engproto = require("@pulumi/pulumi/proto/engine_pb") as typeof import("@pulumi/pulumi/proto/engine_pb");
  const client = new engrpc.EngineClient(address, grpc.credentials.createInsecure());
  try {
    const request = new engproto.LogRequest();
    request.setSeverity(severity === "warning" ? engproto.LogSeverity.WARNING : engproto.LogSeverity.INFO);
    request.setMessage(message);
    if (urn !== undefined) request.setUrn(urn);
    await new Promise<void>((resolve, reject) => {
      client.log(request, new grpc.Metadata(), { deadline: Date.now() + timeoutMs }, (error) => (error ? reject(error) : resolve()));
    });
  } finally {
    client.close();
  }
}
