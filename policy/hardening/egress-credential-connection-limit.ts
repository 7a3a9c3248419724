/**
 * `egress-credential-connection-limit`: an egress credential limits its active connections
 * (`limitActiveConnections` with `activeConnectionLimit`).
 *
 * Why: a credential is shared by everyone it targets (a whole group or image); without a limit a
 * leaked or misused credential can open as many VPN connections as the gateway accepts.
 * `maxActiveConnectionLimit` also flags a limit above that number.
 */
import { flag, numberOf, resourceRule, tri, verdict } from "./common";

/** The `egress-credential-connection-limit` policy: the rule above, on each EgressCredential. */
export const egressCredentialConnectionLimit = resourceRule({
  name: "egress-credential-connection-limit",
  kind: "EgressCredential",
  description: "An egress credential limits its active connections (limitActiveConnections with activeConnectionLimit).",
  severity: "medium",
  area: "egress",
  remediationSteps: "Set limitActiveConnections: true and activeConnectionLimit on the credential.",
  config: {
    maxActiveConnectionLimit: { type: "number", minimum: 1, description: "Also flag an activeConnectionLimit above this." },
  },
  check: (credential, config) => {
    const limited = flag(credential.limitActiveConnections);
    const missing = verdict(
      tri.not(limited),
      "limitActiveConnections is not set: the credential allows any number of connections. Set limitActiveConnections and activeConnectionLimit.",
      "limitActiveConnections is not known yet",
    );
    if (missing || typeof config.maxActiveConnectionLimit !== "number") return missing;
    const limit = numberOf(credential.activeConnectionLimit);
    if (limit === undefined) return { undecided: "activeConnectionLimit is not known yet" };
    return limit !== null && limit > config.maxActiveConnectionLimit
      ? { violation: `activeConnectionLimit is above maxActiveConnectionLimit (${config.maxActiveConnectionLimit}).` }
      : null;
  },
});
