/**
 * `cast-anonymous-recaptcha`: a casting link open to anonymous users asks for a captcha
 * (`requireRecaptcha`).
 *
 * Why: every anonymous request starts a session and creates a user; a captcha keeps scripts from
 * doing that at scale. (It needs captcha keys in the server settings.)
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { EXEMPT_PROPERTY, flag, forKind, tri, verdict } from "./common";

export const NAME = "cast-anonymous-recaptcha";

export const castAnonymousRecaptcha: ResourceValidationPolicy = {
  name: NAME,
  description: "A casting config that allows anonymous access requires a captcha (requireRecaptcha).",
  enforcementLevel: "advisory",
  severity: "medium",
  tags: ["kasm", "casting", "hardening"],
  remediationSteps: "Set requireRecaptcha: true (and the captcha keys in Kasm's server settings).",
  configSchema: { properties: { ...EXEMPT_PROPERTY } },
  validateResource: forKind("CastConfig", (props) =>
    verdict(
      tri.and(flag(props, "allowAnonymous"), tri.not(flag(props, "requireRecaptcha"))),
      "allowAnonymous is true but requireRecaptcha is not: scripts can start anonymous sessions. Set requireRecaptcha.",
      "allowAnonymous or requireRecaptcha is not known yet",
    ),
  ),
};
