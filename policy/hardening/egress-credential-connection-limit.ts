/**
 * `egress-credential-connection-limit`: an egress credential limits its active connections
 * (`limitActiveConnections` with `activeConnectionLimit`).
 *
 * Why: a credential is shared by everyone it targets (a whole group or image); without a limit a
 * leaked or misused credential can open as many VPN connections as the gateway accepts.
 * `maxActiveConnectionLimit` also flags a limit above that number.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { EXEMPT_PROPERTY, flag, forKind, numberOf, tri, verdict } from "./common";

export const NAME = "egress-credential-connection-limit";

export const egressCredentialConnectionLimit: ResourceValidationPolicy = {
  name: NAME,
  description: "An egress credential limits its active connections (limitActiveConnections with activeConnectionLimit).",
  enforcementLevel: "advisory",
  severity: "medium",
  tags: ["kasm", "egress", "hardening"],
  remediationSteps: "Set limitActiveConnections: true and activeConnectionLimit on the credential.",
  configSchema: {
    properties: {
      ...EXEMPT_PROPERTY,
      maxActiveConnectionLimit: { type: "number", minimum: 1, description: "Also flag an activeConnectionLimit above this." },
    },
  },
  validateResource: forKind("EgressCredential", (props, config) => {
    const limited = flag(props, "limitActiveConnections");
    const missing = verdict(
      tri.not(limited),
      "limitActiveConnections is not set: the credential allows any number of connections. Set limitActiveConnections and activeConnectionLimit.",
      "limitActiveConnections is not known yet",
    );
    if (missing || typeof config.maxActiveConnectionLimit !== "number") return missing;
    const limit = numberOf(props, "activeConnectionLimit");
    if (limit === undefined) return { undecided: "activeConnectionLimit is not known yet" };
    return limit !== null && limit > config.maxActiveConnectionLimit
      ? { violation: `activeConnectionLimit is above maxActiveConnectionLimit (${config.maxActiveConnectionLimit}).` }
      : null;
  }),
};
