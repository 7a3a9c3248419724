/**
 * The emulator's HTTP server: Express routing, JSON and multipart bodies, authentication,
 * authorisation, fault injection, persistence and the test control routes.
 *
 * @example
 * ```ts
 * const emulator = await startEmulator({ port: 0, seed: "examples/seed.json" });
 * // ... call `${emulator.url}/api/public/get_users` ...
 * await emulator.close();
 * ```
 */
import { existsSync, readFileSync } from "node:fs";
import http from "node:http";
import https from "node:https";
import type { AddressInfo } from "node:net";
import express, { type NextFunction, type Request, type Response } from "express";
import multer from "multer";
import writeFileAtomic from "write-file-atomic";
import { z } from "zod";
import { authenticate } from "./auth";
import {
  EmulatorError,
  InvalidRequest,
  NoSuchOperation,
  UNHANDLED_EXCEPTION_CONTENT_TYPE,
  UNHANDLED_EXCEPTION_PAGE,
  UnhandledException,
  type AuthAnswers,
} from "./errors";
import { FaultConfig, Faults, type Fault } from "./faults";
import { Reply, type Call } from "./handlers/common";
import { ROUTES, type Route } from "./routes";
import { readSeedFile, seedApiNames, seedAuthAnswers, seedObservedFields, storeFromSeed, type SeedInput } from "./seed";
import { emptyState, Store, type State } from "./store";
import { answerToProduct, requestFromProduct, wireOperationName, type ApiNames } from "./vocabulary";

/** How to start an emulator. */
export interface EmulatorOptions {
  /** Port to listen on; 0 (the default) picks a free one. */
  port?: number;
  /** Address to bind; default `127.0.0.1` (the emulator has no real security: keep it local). */
  host?: string;
  /** The seed: an object, or the path of a JSON file. Ignored when `dataFile` exists already. */
  seed?: SeedInput | string;
  /** Persist every change to this file atomically, and resume from it when it exists. */
  dataFile?: string;
  /** Serve HTTPS with this PEM key and certificate. */
  tls?: { key: string | Buffer; cert: string | Buffer };
  /** Largest accepted JSON body, in bytes (default 1 MiB); larger bodies answer 400. */
  bodyLimitBytes?: number;
  /** Receives one line per request (operation, status, milliseconds; never a body), and one per injected fault. */
  log?: (line: string) => void;
  /**
   * Also send the fields the real product is known to return beyond the spec (listed, with the
   * evidence, in fields.ts and the README). Default: the seed's `observedFields`, else false:
   * every record carries exactly the fields the spec documents.
   */
  observedFields?: boolean;
  /**
   * Speak the released product's names (`product`) rather than the spec's (`spec`): field and
   * operation names, its answer shapes and its own operations (emulator/README.md, "Product
   * mode"). Default: the seed's `apiNames`, else `spec`.
   */
  apiNames?: ApiNames;
  /**
   * Answer authentication and authorisation failures as release 1.19 does (the spec's, `1.19`) or
   * as 1.15 did (`1.15`). Default: the seed's `authAnswers`, else `1.19`.
   */
  authAnswers?: AuthAnswers;
}

/** A running emulator. */
export interface RunningEmulator {
  /** The base URL, such as `http://127.0.0.1:43123`. */
  readonly url: string;
  /** Whether records carry the observed fields beyond the spec (see {@link EmulatorOptions.observedFields}). */
  readonly observedFields: boolean;
  /** The names the emulator speaks (see {@link EmulatorOptions.apiNames}). */
  readonly apiNames: ApiNames;
  /** Which release's authentication answers it gives (see {@link EmulatorOptions.authAnswers}). */
  readonly authAnswers: AuthAnswers;
  /** Stop listening and drop open connections. */
  close(): Promise<void>;
}

/**
 * The body of `POST /__emulator/health`: answer `/api/__healthcheck` unhealthy for a while (a
 * Kasm starting or losing its database), given as a time, a number of probes, or both (healthy
 * again when either runs out). `{}` is healthy at once.
 */
const wholeNumber = (message: string) => z.number({ error: message }).int({ error: message }).min(0, { error: message }).optional();
const HealthConfig = z
  .object({
    unhealthyForMs: wholeNumber("expected a whole number of milliseconds, 0 or more"),
    unhealthyRequests: wholeNumber("expected a whole number of probes, 0 or more"),
  })
  .strict();

/** Whether the health endpoint answers unhealthy, and until when. */
class HealthControl {
  private until = 0;
  private requestsLeft = 0;
  private probes = 0;
  private unhealthyAnswers = 0;

  configure(config: z.infer<typeof HealthConfig>): void {
    this.until = config.unhealthyForMs ? Date.now() + config.unhealthyForMs : 0;
    this.requestsLeft = config.unhealthyRequests ?? 0;
  }

  /** Count one probe: the reason it is answered unhealthy, or undefined for healthy. */
  probe(): string | undefined {
    this.probes += 1;
    const byTime = Date.now() < this.until;
    const byCount = this.requestsLeft > 0;
    if (!byTime && !byCount) return undefined;
    if (byCount) this.requestsLeft -= 1;
    this.unhealthyAnswers += 1;
    return "The emulator was told to answer unhealthy (POST /__emulator/health)";
  }

  describe(): { healthy: boolean; unhealthyForMs: number; unhealthyRequests: number; probes: number; unhealthyAnswers: number } {
    const unhealthyForMs = Math.max(0, this.until - Date.now());
    return {
      healthy: unhealthyForMs === 0 && this.requestsLeft === 0,
      unhealthyForMs,
      unhealthyRequests: this.requestsLeft,
      probes: this.probes,
      unhealthyAnswers: this.unhealthyAnswers,
    };
  }
}

/** Upper bound of an uploaded CSV file. */
const MAX_UPLOAD_BYTES = 10 * 1024 * 1024;

/** The modes an emulator answers in. */
type Modes = Required<Pick<EmulatorOptions, "observedFields" | "apiNames" | "authAnswers">>;

/**
 * Build the store (from the data file when it exists, else from the seed) and decide the modes:
 * each option when given, else the seed's flag. A data file replaces the seed's objects, not its
 * flags, so a restarted emulator answers in the modes it started in.
 */
function initialStore(options: EmulatorOptions): { store: Store; modes: Modes } {
  const seed = typeof options.seed === "string" ? readSeedFile(options.seed) : options.seed;
  const modes: Modes = {
    observedFields: options.observedFields ?? seedObservedFields(seed),
    apiNames: options.apiNames ?? seedApiNames(seed),
    authAnswers: options.authAnswers ?? seedAuthAnswers(seed),
  };
  if (options.dataFile && existsSync(options.dataFile)) {
    const saved = JSON.parse(readFileSync(options.dataFile, "utf8")) as Partial<State>;
    return { store: new Store({ ...emptyState(), ...saved }), modes };
  }
  return { store: storeFromSeed(seed), modes };
}

/**
 * Build the Express application of one emulator around its store. In product mode the renamed
 * operations are served at their product paths only, and the product's own operations are
 * served; in spec mode those answer as any unknown path does.
 */
export function createApp(
  store: Store,
  options: Pick<EmulatorOptions, "dataFile" | "bodyLimitBytes" | "log" | "observedFields" | "apiNames" | "authAnswers"> = {},
) {
  const apiNames = options.apiNames ?? "spec";
  const faults = new Faults();
  const persist = () => {
    if (options.dataFile) writeFileAtomic.sync(options.dataFile, JSON.stringify(store.snapshot()));
  };
  const app = express();
  app.disable("x-powered-by");
  app.disable("etag");

  // JSON for every content type but multipart: clients such as `curl -d` send other types.
  const json = express.json({
    limit: options.bodyLimitBytes ?? 1024 * 1024,
    type: (req) => !String(req.headers["content-type"] ?? "").startsWith("multipart/"),
  });
  const upload = multer({ storage: multer.memoryStorage(), limits: { fileSize: MAX_UPLOAD_BYTES, files: 1 } }).any();

  const health = new HealthControl();
  app.get("/api/__healthcheck", (_req, res) => {
    const unhealthy = health.probe();
    if (unhealthy) res.status(503).json({ ok: false, error_message: unhealthy });
    else res.json({ ok: true });
  });

  const ctx = {
    store,
    faults,
    persist,
    log: options.log,
    observedFields: options.observedFields ?? false,
    apiNames,
    authAnswers: options.authAnswers ?? "1.19",
  } satisfies DispatchContext;
  for (const route of ROUTES) {
    const { method, envelope, availability } = route.operation;
    if (availability === "product" && apiNames !== "product") continue;
    const name = wireOperationName(route.operation.name, apiNames);
    const path = route.operation.path.replace(/[^/]+$/, name);
    const parseBody = envelope === "multipart" ? requireMultipart(route, upload) : json;
    app[method === "GET" ? "get" : "post"](path, parseBody, (req, res, next) => {
      dispatch(route, req, res, ctx).catch(next);
    });
    app.all(path, (req, res) => {
      res
        .status(405)
        .set("Allow", method)
        .json({ error_message: `Method ${req.method} not allowed for ${name}; use ${method}` });
    });
  }

  // The control routes read JSON whatever the content type says (curl -d sends
  // application/x-www-form-urlencoded), as the API routes do; an empty body is `{}`.
  const controlJson = express.json({ limit: options.bodyLimitBytes ?? 1024 * 1024, type: () => true });

  controlRoute(app, controlJson, {
    name: "faults",
    what: "fault",
    schema: FaultConfig,
    configure: (c) => faults.configure(c),
    reset: () => faults.clear(),
    describe: () => faults.describe(),
  });
  controlRoute(app, controlJson, {
    name: "health",
    what: "health",
    schema: HealthConfig,
    configure: (c) => health.configure(c),
    reset: () => health.configure({}),
    describe: () => health.describe(),
  });
  app.get("/__emulator/state", (_req, res) => {
    res.json(store.snapshot());
  });

  app.use((req, _res, next) => {
    // Logged as any request is (a client calling a path the emulator does not serve is what a log is read for).
    options.log?.(`${req.method} ${req.path} 404 (no such operation)`);
    next(new NoSuchOperation(req.path));
  });
  app.use(errorHandler(options.log));
  return app;
}

/** A setting of the emulator that a test steers over HTTP (see {@link controlRoute}). */
interface Control<Config> {
  /** The route's last segment: `/__emulator/<name>`. */
  readonly name: string;
  /** How a refusal names the setting: `Invalid <what> configuration: ...`. */
  readonly what: string;
  readonly schema: z.ZodType<Config>;
  configure(config: Config): void;
  reset(): void;
  describe(): unknown;
}

/**
 * `/__emulator/<name>`: POST sets the control (a body the schema refuses is a 400 naming the
 * field), GET shows it, DELETE resets it; each answers with what is now set.
 */
function controlRoute<Config>(app: express.Express, readJson: express.RequestHandler, control: Control<Config>): void {
  const path = `/__emulator/${control.name}`;
  app.post(path, readJson, (req, res) => {
    const parsed = control.schema.safeParse(req.body ?? {});
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      res.status(400).json({ error_message: `Invalid ${control.what} configuration: ${issue.path.join(".") || "body"}: ${issue.message}` });
      return;
    }
    control.configure(parsed.data);
    res.json(control.describe());
  });
  app.get(path, (_req, res) => {
    res.json(control.describe());
  });
  app.delete(path, (_req, res) => {
    control.reset();
    res.json(control.describe());
  });
}

/** Multipart parsing for the batch operations, with a clear 400 for any other content type. */
function requireMultipart(route: Route, upload: express.RequestHandler): express.RequestHandler {
  return (req, res, next) => {
    if (!String(req.headers["content-type"] ?? "").startsWith("multipart/form-data")) {
      next(new InvalidRequest(`Invalid Request: ${route.operation.name} expects multipart/form-data with the CSV in file_content`));
      return;
    }
    upload(req, res, next);
  };
}

interface DispatchContext {
  store: Store;
  faults: Faults;
  persist: () => void;
  log?: (line: string) => void;
  observedFields: boolean;
  apiNames: ApiNames;
  authAnswers: AuthAnswers;
}

/**
 * Run one operation: fault before, authenticate, authorise, handle, persist, fault after, reply.
 * A fault decided "after" lets the operation commit and then fails the response, as a proxy that
 * gives up on a slow API server does.
 */
async function dispatch(route: Route, req: Request, res: Response, ctx: DispatchContext): Promise<void> {
  const started = process.hrtime.bigint();
  const operation = route.operation;
  const fault = ctx.faults.decide(operation.name);
  if (fault?.kind === "latency") {
    res.set("x-emulator-fault", `latency; phase=before; ms=${fault.latencyMs}`);
    await new Promise((resolve) => setTimeout(resolve, fault.latencyMs));
  } else if (fault?.phase === "before") {
    ctx.log?.(`${operation.name} fault ${fault.kind} before`);
    return applyFault(fault, res);
  }

  let status = 200;
  let body: unknown;
  let contentType: string | undefined;
  try {
    const multipart = operation.envelope === "multipart";
    const payload: Record<string, unknown> = isObject(req.body) ? req.body : {};
    if (!multipart && req.body !== undefined && !isObject(req.body)) throw new InvalidRequest("Invalid Request: the body must be a JSON object");
    const [key, secret] = credentials(req, payload, multipart, ctx.apiNames);
    const caller = authenticate(ctx.store, key, secret, new Date(), ctx.authAnswers);
    caller.require(operation.name);
    const product = ctx.apiNames === "product";
    const call: Call = {
      operation: operation.name,
      body: product ? requestFromProduct(operation.name, payload) : payload,
      query: req.query as Record<string, unknown>,
      fileContent: multipart ? uploadedFile(req) : undefined,
      store: ctx.store,
      caller,
      baseUrl: `${req.protocol}://${req.get("host")}`,
      observedFields: ctx.observedFields,
      apiNames: ctx.apiNames,
    };
    // A registry's create fetches its files: the only handlers that answer a promise.
    const result = await route.handler(call);
    if (result instanceof Reply) ({ status, body, contentType } = result);
    else body = result;
    if (operation.access === "write") ctx.persist();
  } catch (error) {
    if (!(error instanceof EmulatorError)) throw error;
    status = error.status;
    body = error.body();
    // 1.15's page for an exception it does not handle: not JSON, though labelled so.
    if (error instanceof UnhandledException && ctx.apiNames === "product") {
      body = Buffer.from(UNHANDLED_EXCEPTION_PAGE);
      contentType = UNHANDLED_EXCEPTION_CONTENT_TYPE;
    }
  }
  // Answers are renamed like requests; a JPEG or a page (contentType set) has no names to rename.
  if (ctx.apiNames === "product" && !contentType) body = answerToProduct(body);
  ctx.log?.(`${wireOperationName(operation.name, ctx.apiNames)} ${status} ${(Number(process.hrtime.bigint() - started) / 1e6).toFixed(1)}ms`);
  if (fault?.phase === "after" && fault.kind !== "latency") {
    ctx.log?.(`${operation.name} fault ${fault.kind} after`);
    return applyFault(fault, res);
  }
  res.status(status);
  if (body === undefined) res.end();
  // Set as given: express's res.type would add a charset that the product's answer does not carry.
  else if (contentType) res.setHeader("Content-Type", contentType).send(body);
  else res.json(body);
}

/**
 * The key and secret of a call. Multipart calls carry them in the `api-key` and `api-key-secret`
 * headers; JSON calls in the body. The product reads those headers on every operation, before
 * the body (1.15's authentication), so product mode does too.
 */
function credentials(req: Request, payload: Record<string, unknown>, multipart: boolean, apiNames: ApiNames): [unknown, unknown] {
  if (multipart) return [req.get("api-key"), req.get("api-key-secret")];
  if (apiNames !== "product") return [payload.api_key, payload.api_key_secret];
  return [req.get("api-key") || payload.api_key, req.get("api-key-secret") || payload.api_key_secret];
}

/** The CSV of a batch call: an uploaded file part, or a plain text field, named `file_content`. */
function uploadedFile(req: Request): Buffer | undefined {
  const files = (req.files ?? []) as Express.Multer.File[];
  const file = files.find((f) => f.fieldname === "file_content");
  if (file) return file.buffer;
  const field = isObject(req.body) ? req.body.file_content : undefined;
  return typeof field === "string" ? Buffer.from(field, "utf8") : undefined;
}

function applyFault(fault: Fault, res: Response): void {
  res.set("x-emulator-fault", `${fault.kind}; phase=${fault.phase}`);
  switch (fault.kind) {
    case "reset":
      res.socket?.destroy();
      return;
    case "429":
      res.status(429).set("Retry-After", "1").json({ error_message: "Too Many Requests" });
      return;
    case "503":
      res.status(503).json({ error_message: "Service Unavailable" });
      return;
    default:
      res.status(500).json({ error_message: "Internal Server Error" });
  }
}

/** Turn body-parser, multer and emulator errors into the wire's `{error_message}` bodies. */
function errorHandler(log?: (line: string) => void) {
  return (error: unknown, _req: Request, res: Response, _next: NextFunction) => {
    let status = 500;
    let body: Record<string, unknown> = { error_message: "Internal Server Error" };
    const type = (error as { type?: string }).type;
    if (error instanceof EmulatorError) {
      status = error.status;
      body = error.body();
    } else if (type === "entity.parse.failed") {
      status = 400;
      body = { error_message: "Invalid Request: the body is not valid JSON" };
    } else if (type === "entity.too.large") {
      status = 400;
      body = { error_message: `Invalid Request: the body is larger than the limit of ${(error as { limit: number }).limit} bytes` };
    } else if (error instanceof multer.MulterError) {
      status = 400;
      body = { error_message: `Invalid Request: ${error.message} (${error.field ?? "upload"})` };
    } else if (type !== undefined && (error as { status?: number }).status === 400) {
      status = 400;
      body = { error_message: `Invalid Request: ${(error as Error).message}` };
    } else {
      // A bug of the emulator: say so, without request data (it may hold secrets).
      log?.(`internal error: ${(error as Error)?.stack ?? String(error)}`);
      process.stderr.write(`kasm-emulator: internal error: ${(error as Error)?.stack ?? String(error)}\n`);
    }
    if (res.headersSent) return;
    res.status(status).json(body);
  };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** Start an emulator; resolves once it accepts requests. */
export async function startEmulator(options: EmulatorOptions = {}): Promise<RunningEmulator> {
  const { store, modes } = initialStore(options);
  const app = createApp(store, { ...options, ...modes });
  const server = options.tls ? https.createServer({ key: options.tls.key, cert: options.tls.cert }, app) : http.createServer(app);
  server.keepAliveTimeout = 65_000;
  const host = options.host ?? "127.0.0.1";
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  // Written only once the port is ours: an emulator started on a busy port must not rewrite the
  // data file of the one already listening there.
  if (options.dataFile) writeFileAtomic.sync(options.dataFile, JSON.stringify(store.snapshot()));
  const { port } = server.address() as AddressInfo;
  const urlHost = host.includes(":") ? `[${host}]` : host;
  return {
    url: `${options.tls ? "https" : "http"}://${urlHost}:${port}`,
    ...modes,
    close: () =>
      new Promise<void>((resolve, reject) => {
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}
