/**
 * A scripted plain HTTP server for the client's unit tests: each request is answered by the next
 * step scripted for its operation (or by a default), and every request is recorded.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";

/** What the server does with one request. */
export type Step =
  | { status: number; body?: unknown; headers?: Record<string, string>; raw?: string }
  | { reset: true }
  | { hang: true }
  | ((request: RecordedRequest) => Step);

/** A request the server received. */
export interface RecordedRequest {
  readonly method: string;
  readonly path: string;
  /** The last segment of the path: the operation name for API calls. */
  readonly operation: string;
  readonly headers: http.IncomingHttpHeaders;
  readonly body: string;
  readonly json: any;
}

/** A running scripted server. */
export interface LocalServer {
  readonly url: string;
  readonly requests: RecordedRequest[];
  /** Queue steps for an operation; when its queue is empty, `fallback` answers. */
  script(operation: string, ...steps: Step[]): void;
  /** The answer when no step is queued. Default: 200 `{}`. */
  fallback: (request: RecordedRequest) => Step;
  /** The operations requested, in order. */
  operations(): string[];
  close(): Promise<void>;
}

/** Start a scripted server on a free loopback port. */
export async function startLocalServer(): Promise<LocalServer> {
  const queues = new Map<string, Step[]>();
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const body = Buffer.concat(chunks).toString("utf8");
      let json: unknown;
      try {
        json = JSON.parse(body);
      } catch {
        json = undefined;
      }
      const path = (req.url ?? "/").split("?")[0];
      const recorded: RecordedRequest = {
        method: req.method ?? "",
        path,
        operation: path.split("/").pop() ?? "",
        headers: req.headers,
        body,
        json,
      };
      requests.push(recorded);
      let step: Step = queues.get(recorded.operation)?.shift() ?? local.fallback(recorded);
      while (typeof step === "function") step = step(recorded);
      if ("reset" in step) return void req.socket.destroy();
      if ("hang" in step) return; // never answer: the client's timeout must fire
      res.writeHead(step.status, { "content-type": "application/json", ...step.headers });
      res.end(step.raw ?? (step.body === undefined ? "" : JSON.stringify(step.body)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  const local: LocalServer = {
    url: `http://127.0.0.1:${port}`,
    requests,
    script: (operation, ...steps) => queues.set(operation, [...(queues.get(operation) ?? []), ...steps]),
    fallback: () => ({ status: 200, body: {} }),
    operations: () => requests.map((r) => r.operation),
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return local;
}

/** A valid user record for scripted answers. */
export function userRecord(username: string, user_id = "0123456789abcdef0123456789abcdef") {
  return { user_id, username, locked: false, disabled: false, groups: [] };
}
