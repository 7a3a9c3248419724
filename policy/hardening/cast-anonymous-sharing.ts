/**
 * `cast-anonymous-sharing`: a casting link open to anonymous users does not turn session sharing
 * on (`enableSharing`, or `allowWsSharing` with `enforceClientSettings`).
 *
 * Why: a shared session can be joined by whoever gets the sharing link, on top of an anonymous
 * session that needed no login to begin with.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { EXEMPT_PROPERTY, flag, forKind, tri, verdict } from "./common";

export const NAME = "cast-anonymous-sharing";

export const castAnonymousSharing: ResourceValidationPolicy = {
  name: NAME,
  description: "A casting config that allows anonymous access does not enable session sharing.",
  enforcementLevel: "advisory",
  severity: "medium",
  tags: ["kasm", "casting", "hardening"],
  remediationSteps: "Set enableSharing (and allowWsSharing) to false on anonymous casting configs.",
  configSchema: { properties: { ...EXEMPT_PROPERTY } },
  validateResource: forKind("CastConfig", (props) =>
    verdict(
      tri.and(
        flag(props, "allowAnonymous"),
        tri.or(flag(props, "enableSharing"), tri.and(flag(props, "enforceClientSettings"), flag(props, "allowWsSharing"))),
      ),
      "allowAnonymous is true and session sharing is on (enableSharing, or allowWsSharing with enforceClientSettings): anyone with the sharing link can join. Turn sharing off.",
      "allowAnonymous or the sharing settings are not known yet",
    ),
  ),
};
