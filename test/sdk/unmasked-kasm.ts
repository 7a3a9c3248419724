/**
 * A Kasm that does not mask its secrets: a proxy in front of the emulator that fills in the secret
 * fields of the records it answers with, in plain, as a Kasm release may send them. The emulator
 * masks a server's connection credentials and a zone's cloud key, as the spec documents for some
 * of them; a lookup must not depend on that to keep secrets out of plain results and the state.
 */
import http from "node:http";
import type { AddressInfo } from "node:net";
import { request } from "undici";

/** Distinctive secret values, so that a test can search any output for them. */
export const PLAIN_SECRETS = {
  connection_password: "conn-password-Hq72vX",
  connection_private_key: "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAA-Jm4p\n-----END OPENSSH PRIVATE KEY-----\n",
  connection_passphrase: "conn-passphrase-Tz41",
  connection_info_password: "rdp-password-Wn58",
  registration_jwt: "eyJhbGciOiJIUzI1NiJ9.eyJhZ2VudCI6IndzMSJ9.reg-jwt-Kd93",
  /** A field the spec does not list, named like a secret. */
  session_token: "session-token-Lp06",
  ctr_token: "registry-token-Bv27",
  cloud_secret_access_key: "cloud-secret-Yr15",
} as const;

/** Every value of {@link PLAIN_SECRETS}. */
export const PLAIN_SECRET_VALUES: readonly string[] = Object.values(PLAIN_SECRETS);

/** Which records get the secrets. */
export interface UnmaskedTargets {
  /** The server (hex id) whose record carries the connection secrets. */
  readonly serverId: string;
  /** The image (by name) whose record carries a registry token. */
  readonly imageName: string;
  /** The zone (by name) whose record carries a cloud secret key. */
  readonly zoneName: string;
}

/** A running proxy. */
export interface UnmaskedKasm {
  readonly url: string;
  close(): Promise<void>;
}

type Json = Record<string, any>;

function fillIn(operation: string, body: Json, targets: UnmaskedTargets): void {
  // A released Kasm answers get_servers with a list, and names the registry token docker_token.
  const server = operation === "get_servers" ? (body.server ?? body.servers?.[0]) : undefined;
  if (server?.server_id === targets.serverId) {
    Object.assign(server, {
      connection_password: PLAIN_SECRETS.connection_password,
      connection_private_key: PLAIN_SECRETS.connection_private_key,
      connection_passphrase: PLAIN_SECRETS.connection_passphrase,
      connection_info: { guac: { settings: { username: "kasm", password: PLAIN_SECRETS.connection_info_password } } },
      registration_jwt: PLAIN_SECRETS.registration_jwt,
      session_token: PLAIN_SECRETS.session_token,
    });
  }
  if (operation === "get_images") {
    for (const image of body.images ?? [])
      if (image.name === targets.imageName) image["docker_token" in image ? "docker_token" : "ctr_token"] = PLAIN_SECRETS.ctr_token;
  }
  if (operation === "get_zones") {
    for (const zone of body.zones ?? []) if (zone.zone_name === targets.zoneName) zone.cloud_secret_access_key = PLAIN_SECRETS.cloud_secret_access_key;
  }
}

/** Start the proxy in front of the emulator at `emulatorUrl`. */
export async function startUnmaskedKasm(emulatorUrl: string, targets: UnmaskedTargets): Promise<UnmaskedKasm> {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      void (async () => {
        const path = req.url ?? "/";
        const answer = await request(`${emulatorUrl}${path}`, {
          method: (req.method ?? "POST") as "POST",
          body: chunks.length ? Buffer.concat(chunks) : undefined,
          headers: { "content-type": req.headers["content-type"] ?? "application/json" },
        });
        let text = await answer.body.text();
        if (answer.statusCode === 200) {
          const body = JSON.parse(text) as Json;
          fillIn(path.split("?")[0].split("/").pop() ?? "", body, targets);
          text = JSON.stringify(body);
        }
        res.writeHead(answer.statusCode, { "content-type": "application/json" });
        res.end(text);
      })().catch((error: unknown) => {
        res.writeHead(502, { "content-type": "application/json" });
        res.end(JSON.stringify({ error_message: `proxy: ${String(error)}` }));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
