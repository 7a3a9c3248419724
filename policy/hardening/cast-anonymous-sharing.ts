/**
 * `cast-anonymous-sharing`: a casting link open to anonymous users does not turn session sharing
 * on (`enableSharing`, or `allowWsSharing` with `enforceClientSettings`).
 *
 * Why: a shared session can be joined by whoever gets the sharing link, on top of an anonymous
 * session that needed no login to begin with.
 */
import { flag, resourceRule, tri, verdict } from "./common";

/** The `cast-anonymous-sharing` policy: the rule above, on each CastConfig. */
export const castAnonymousSharing = resourceRule({
  name: "cast-anonymous-sharing",
  kind: "CastConfig",
  description: "A casting config that allows anonymous access does not enable session sharing.",
  severity: "medium",
  area: "casting",
  remediationSteps: "Set enableSharing (and allowWsSharing) to false on anonymous casting configs.",
  check: (cast) =>
    verdict(
      tri.and(flag(cast.allowAnonymous), tri.or(flag(cast.enableSharing), tri.and(flag(cast.enforceClientSettings), flag(cast.allowWsSharing)))),
      "allowAnonymous is true and session sharing is on (enableSharing, or allowWsSharing with enforceClientSettings): anyone with the sharing link can join. Turn sharing off.",
      "allowAnonymous or the sharing settings are not known yet",
    ),
});
