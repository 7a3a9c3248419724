/**
 * The parts of @pulumi/pulumi and @pulumi/policy that this package uses although they are not
 * their public API: deep imports of Pulumi's generated gRPC modules and command scripts, and two
 * keys of @pulumi/policy's property proxy. A release of either package may drop or rename any of
 * them without notice, so each is checked here by name, against whatever copy a `require`
 * resolves: this repository's pinned versions in the test suite (test/compat/internals.test.ts),
 * the newest releases in `npm run test:compat` (scripts/compat.ts).
 *
 * Neither has a public replacement today: @pulumi/policy marks both the proxy's unwrapping key and
 * `UnknownValueError` `@internal` (its typings for them are empty), and the gRPC stubs and command
 * scripts are the only way to speak Pulumi's protocols from Node without the CLI.
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { UNKNOWN_SENTINELS } from "../permissions";
import { specialSecretSig, specialSigKey } from "../provider/native/properties";

/** One internal: what it is, who relies on it, and how to tell that it is still there. */
export interface Internal {
  /** The module and symbol, as a failure names it: `@pulumi/policy: __getSpecialProxyTarget`. */
  readonly symbol: string;
  /** The files of this repository that rely on it, and what for. */
  readonly usedBy: string;
  /** Throws, saying what is wrong, when the internal is gone or behaves differently. */
  readonly check: (req: NodeRequire) => void;
}

/** The outcome of checking one internal. */
export interface InternalCheck {
  readonly symbol: string;
  readonly usedBy: string;
  /** Undefined when the internal is there and behaves as relied on. */
  readonly problem?: string;
}

/** A module must load and export each of `names`. */
function moduleExports(module: string, names: readonly string[], usedBy: string): Internal[] {
  return names.map((name) => ({
    symbol: `${module}: ${name}`,
    usedBy,
    check: (req: NodeRequire) => {
      const loaded = req(module) as Record<string, unknown>;
      if (loaded[name] === undefined || loaded[name] === null) throw new Error(`${module} no longer exports ${name}`);
    },
  }));
}

/** A script that is started as a process (never loaded here: loading it would run it). */
function script(module: string, usedBy: string): Internal {
  return { symbol: module, usedBy, check: (req) => void req.resolve(module) };
}

/** @pulumi/policy's proxy module, loaded by file (it is not among the package's entry points). */
function policyProxy(req: NodeRequire): Record<string, any> {
  return req(path.join(path.dirname(req.resolve("@pulumi/policy/package.json")), "proxy.js"));
}

const HARNESS = "testing/ (the test engine and the dynamic-provider host driver)";
const PACKS = "policy/shared/kasm.ts (both policy packs)";
const NATIVE = "provider/native/ (the native provider plugin's gRPC server)";

/** Every internal this repository relies on. */
export const INTERNALS: readonly Internal[] = [
  {
    symbol: "@pulumi/policy: __getSpecialProxyTarget",
    usedBy: `${PACKS}: rawProps reads the plain properties behind the proxy, to see which values are unknown`,
    check: (req) => {
      const { unknownCheckingProxy } = req("@pulumi/policy") as { unknownCheckingProxy?: (o: object) => any };
      const key = policyProxy(req).getSpecialProxyTarget;
      if (key !== "__getSpecialProxyTarget") throw new Error(`the proxy's unwrapping key is now ${JSON.stringify(key)}`);
      if (typeof unknownCheckingProxy !== "function") throw new Error("@pulumi/policy no longer exports unknownCheckingProxy, so the key cannot be checked");
      const target = { password: UNKNOWN_SENTINELS[2] };
      if (unknownCheckingProxy(target)[key] !== target) throw new Error("the proxy no longer hands out the object it wraps under __getSpecialProxyTarget");
    },
  },
  {
    symbol: "@pulumi/policy: UnknownValueError",
    usedBy: `${PACKS}: undecidable() throws it so that @pulumi/policy reports "can't run policy during preview" as advisory`,
    check: (req) => {
      const policy = req("@pulumi/policy") as { UnknownValueError?: new (...a: any[]) => Error; unknownCheckingProxy?: (o: object) => any };
      if (typeof policy.UnknownValueError !== "function") throw new Error("@pulumi/policy no longer exports UnknownValueError");
      let thrown: unknown;
      try {
        void policy.unknownCheckingProxy!({ password: UNKNOWN_SENTINELS[2] }).password;
      } catch (error) {
        thrown = error;
      }
      if (!(thrown instanceof policy.UnknownValueError)) throw new Error("reading an unknown value through the proxy no longer throws UnknownValueError");
      const server = readFileSync(path.join(path.dirname(req.resolve("@pulumi/policy/package.json")), "server.js"), "utf8");
      if (!/instanceof\s+proxy_1\.UnknownValueError/.test(server)) throw new Error("the analyzer no longer turns UnknownValueError into an advisory result");
    },
  },
  {
    symbol: "@pulumi/policy: unknown value sentinels",
    usedBy: "permissions/kinds.ts (UNKNOWN_SENTINELS, read by both policy packs)",
    check: (req) => {
      const proxy = policyProxy(req);
      const theirs = ["Boolean", "Number", "String", "Array", "Asset", "Archive", "Object"].map((k) => proxy[`unknown${k}Value`]);
      const missing = theirs.filter((s) => typeof s !== "string" || !UNKNOWN_SENTINELS.includes(s));
      if (missing.length) throw new Error(`sentinels not in UNKNOWN_SENTINELS: ${missing.map(String).join(", ")}`);
    },
  },
  {
    symbol: "@pulumi/pulumi: @grpc/grpc-js among its dependencies",
    usedBy: "provider/engine-log.ts (warnings through the engine's Log service, with the gRPC copy Pulumi's stubs use)",
    check: (req) => {
      const pulumiDir = path.dirname(req.resolve("@pulumi/pulumi/package.json"));
      req.resolve("@grpc/grpc-js", { paths: [pulumiDir] });
    },
  },
  ...moduleExports("@pulumi/pulumi/proto/engine_grpc_pb", ["EngineClient", "EngineService"], `provider/engine-log.ts, ${HARNESS}`),
  ...moduleExports(
    "@pulumi/pulumi/proto/engine_pb",
    ["LogRequest", "LogSeverity", "GetRootResourceResponse", "SetRootResourceResponse"],
    `provider/engine-log.ts, ${HARNESS}`,
  ),
  ...moduleExports("@pulumi/pulumi/proto/provider_grpc_pb", ["ResourceProviderClient"], HARNESS),
  ...moduleExports(
    "@pulumi/pulumi/proto/provider_pb",
    [
      "ConfigureRequest",
      "CheckRequest",
      "CheckResponse",
      "DiffRequest",
      "DiffResponse",
      "CreateRequest",
      "CreateResponse",
      "ReadRequest",
      "ReadResponse",
      "UpdateRequest",
      "UpdateResponse",
      "DeleteRequest",
      "InvokeResponse",
      "ErrorResourceInitFailed",
    ],
    HARNESS,
  ),
  ...moduleExports("@pulumi/pulumi/proto/status_pb", ["Status"], `${HARNESS}, ${NATIVE}`),
  ...moduleExports("@pulumi/pulumi/proto/provider_grpc_pb", ["ResourceProviderService"], NATIVE),
  ...moduleExports("@pulumi/pulumi/proto/provider_pb", ["ConfigureResponse", "CheckFailure", "GetSchemaRequest", "GetSchemaResponse", "PropertyDiff"], NATIVE),
  ...moduleExports("@pulumi/pulumi/proto/plugin_pb", ["PluginInfo", "PluginAttach"], NATIVE),
  {
    symbol: "Pulumi's secret signature (runtime/rpc: specialSigKey, specialSecretSig)",
    usedBy: `${NATIVE}: secrets as the engine sends them, with acceptSecrets (provider/native/properties.ts writes the two strings, so as not to load the runtime)`,
    check: (req) => {
      const rpc = req("@pulumi/pulumi/runtime/rpc") as { specialSigKey?: string; specialSecretSig?: string };
      if (rpc.specialSigKey !== specialSigKey || rpc.specialSecretSig !== specialSecretSig)
        throw new Error(`Pulumi's secret signature is now ${JSON.stringify([rpc.specialSigKey, rpc.specialSecretSig])}`);
    },
  },
  ...moduleExports("@pulumi/pulumi/proto/resource_grpc_pb", ["ResourceMonitorService"], HARNESS),
  ...moduleExports("@pulumi/pulumi/proto/alias_pb", ["Alias"], HARNESS),
  ...moduleExports("@pulumi/pulumi/proto/resource_pb", ["RegisterResourceRequest", "RegisterResourceResponse", "SupportsFeatureResponse", "Result"], HARNESS),
  ...moduleExports("@pulumi/pulumi/proto/analyzer_grpc_pb", ["AnalyzerClient"], HARNESS),
  ...moduleExports(
    "@pulumi/pulumi/proto/analyzer_pb",
    [
      "AnalyzeRequest",
      "AnalyzeResponse",
      "AnalyzeStackRequest",
      "AnalyzerInfo",
      "AnalyzerPropertyDependencies",
      "AnalyzerProviderResource",
      "AnalyzerResource",
      "AnalyzerResourceOptions",
      "AnalyzerStackConfigureRequest",
      "ConfigureAnalyzerRequest",
      "EnforcementLevel",
      "PolicyConfig",
    ],
    HARNESS,
  ),
  script("@pulumi/pulumi/cmd/run", `${HARNESS}: runs the program`),
  script("@pulumi/pulumi/cmd/dynamic-provider", `${HARNESS}: the dynamic-provider host`),
  script("@pulumi/pulumi/cmd/run-policy-pack", `${HARNESS}: runs policy packs`),
];

/**
 * The deep module paths {@link INTERNALS} covers: a deep import found in the sources must be one
 * of these (test/compat/internals.test.ts), so that a new one cannot go unchecked.
 */
export const COVERED_MODULES: ReadonlySet<string> = new Set(
  INTERNALS.map((i) => i.symbol.split(":")[0]).filter((m) => m.startsWith("@pulumi/pulumi/") || m.startsWith("@pulumi/policy/")),
);

/** Check every internal against the copies `req` resolves. */
export function checkInternals(req: NodeRequire): InternalCheck[] {
  return INTERNALS.map((internal) => {
    try {
      internal.check(req);
      return { symbol: internal.symbol, usedBy: internal.usedBy };
    } catch (error) {
      return { symbol: internal.symbol, usedBy: internal.usedBy, problem: error instanceof Error ? error.message : String(error) };
    }
  });
}
