/**
 * Which fields of each record a lookup returns are secret: what the program's lookups leave out of
 * their plain results (and give as secret Outputs in their twins), and what the native provider's
 * Invoke answers as secret values.
 *
 * Apart from the lookups themselves, and free of zod and the API's record schemas, so that a
 * program's SDK loads it at once while the lookups load on the first call (sdk/lookups/common.ts).
 */
import { recordSecrets } from "./common";
import type { Api, Camelized } from "./common";

// --- users ---------------------------------------------------------------------------------------

/** The secret fields of a user record. */
export interface UserSecrets {
  /**
   * A hash `get_user` returns, derived from the user's credentials: nothing a program needs to
   * manage a user, and something an attacker could attack offline.
   */
  readonly hash?: string | null;
}

/** A user record, camelCased, secrets included. */
export type UserRecord = Camelized<Awaited<ReturnType<Api["users"]["getUser"]>>>;

/** The secret fields of a user record, by name. */
export const USER_SECRETS = recordSecrets<UserRecord, UserSecrets>({
  hash: {
    type: "string",
    description: "A hash derived from the user's credentials, as `get_user` returns it; secret, since it could be attacked offline.",
  },
});

// --- images, zones and servers -------------------------------------------------------------------

/** The secret fields of an image record. */
export interface ImageSecrets {
  /** The password or token of the image's container registry (`ctrUser`, its username, is kept). */
  readonly ctrToken?: string | null;
}

/** The secret fields of a zone record. */
export interface ZoneSecrets {
  /**
   * The secret access key of an auto-scaling zone's cloud account. Kasm documents it as masked;
   * a release that sends it must not have it written to the state.
   */
  readonly cloudSecretAccessKey?: string | null;
}

/** The secret fields of a server record. */
export interface ServerSecrets {
  /** The password Kasm uses for the server's connection (SSH, RDP, ...). */
  readonly connectionPassword?: string | null;
  /** The private key Kasm uses for the server's connection. */
  readonly connectionPrivateKey?: string | null;
  /** The passphrase of that private key. */
  readonly connectionPassphrase?: string | null;
  /** Free-form connection settings (such as RDP options), which may carry credentials. */
  readonly connectionInfo?: unknown;
  /** The token an agent registers itself with. */
  readonly registrationJwt?: string | null;
}

/** An image record, camelCased, secrets included. */
export type ImageRecord = Camelized<Awaited<ReturnType<Api["images"]["getImages"]>>[number]>;
/** A zone record, camelCased, secrets included. */
export type ZoneRecord = Camelized<Awaited<ReturnType<Api["zones"]["getZones"]>>[number]>;
/** A server record, camelCased, secrets included. */
export type ServerRecord = Camelized<Awaited<ReturnType<Api["servers"]["getServers"]>>>;

/** The secret fields of an image record, by name. */
export const IMAGE_SECRETS = recordSecrets<ImageRecord, ImageSecrets>({
  ctrToken: { type: "string", description: "The password or token of the image's container registry (`ctrUser` is its username)." },
});
/** The secret fields of a zone record, by name. */
export const ZONE_SECRETS = recordSecrets<ZoneRecord, ZoneSecrets>({
  cloudSecretAccessKey: {
    type: "string",
    description: "The secret access key of an auto-scaling zone's cloud account (`cloudAccessKeyId` is its id); Kasm documents it as masked.",
  },
});
/** The secret fields of a server record, by name. */
export const SERVER_SECRETS = recordSecrets<ServerRecord, ServerSecrets>({
  connectionPassword: { type: "string", description: "The password Kasm uses to connect to the server (SSH, RDP, ...)." },
  connectionPrivateKey: { type: "string", description: "The private key Kasm uses to connect to the server." },
  connectionPassphrase: { type: "string", description: "The passphrase of `connectionPrivateKey`." },
  connectionInfo: { type: "any", description: "Free-form connection settings (such as RDP options), which may hold credentials." },
  registrationJwt: { type: "string", description: "The token an agent registers itself with." },
});

// --- egress --------------------------------------------------------------------------------------

/** The secret fields of an egress gateway record. */
export interface EgressGatewaySecrets {
  /** The gateway's VPN configuration, which may hold a private key (a WireGuard `PrivateKey` line, OpenVPN keys). */
  readonly config?: string | null;
}

/** An egress gateway record, camelCased, secrets included. */
export type EgressGatewayRecord = Camelized<Awaited<ReturnType<Api["egress"]["getEgressGateways"]>>[number]>;

/** The secret fields of an egress gateway record, by name. */
export const EGRESS_GATEWAY_SECRETS = recordSecrets<EgressGatewayRecord, EgressGatewaySecrets>({
  config: {
    type: "string",
    description: "The gateway's VPN connection configuration, which may hold a private key (a WireGuard `PrivateKey` line, OpenVPN keys).",
  },
});
