/**
 * `cast-anonymous-recaptcha`: a casting link open to anonymous users asks for a captcha
 * (`requireRecaptcha`).
 *
 * Why: every anonymous request starts a session and creates a user; a captcha keeps scripts from
 * doing that at scale. (It needs captcha keys in the server settings.)
 */
import { flag, resourceRule, tri, verdict } from "./common";

/** The `cast-anonymous-recaptcha` policy: the rule above, on each CastConfig. */
export const castAnonymousRecaptcha = resourceRule({
  name: "cast-anonymous-recaptcha",
  kind: "CastConfig",
  description: "A casting config that allows anonymous access requires a captcha (requireRecaptcha).",
  severity: "medium",
  area: "casting",
  remediationSteps: "Set requireRecaptcha: true (and the captcha keys in Kasm's server settings).",
  check: (cast) =>
    verdict(
      tri.and(flag(cast.allowAnonymous), tri.not(flag(cast.requireRecaptcha))),
      "allowAnonymous is true but requireRecaptcha is not: scripts can start anonymous sessions. Set requireRecaptcha.",
      "allowAnonymous or requireRecaptcha is not known yet",
    ),
});
