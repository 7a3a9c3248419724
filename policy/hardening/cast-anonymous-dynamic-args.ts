/**
 * `cast-anonymous-dynamic-args`: a casting link open to anonymous users does not let the caller
 * choose the session's `ws_url` (`dynamicWsUrl`) or container network (`dynamicCtrNetwork`).
 *
 * Why: with those flags the URL's query arguments set the session's WS_URL environment variable
 * or the Docker network it joins; an anonymous caller could point the session at a page of their
 * choosing or at an internal network. `allowedArguments` lists flags accepted on purpose.
 */
import type { ResourceValidationPolicy } from "@pulumi/policy";
import { EXEMPT_PROPERTY, flag, forKind, tri, verdict } from "./common";

export const NAME = "cast-anonymous-dynamic-args";

const FLAGS = ["dynamicWsUrl", "dynamicCtrNetwork"] as const;

const WHAT: Record<(typeof FLAGS)[number], string> = { dynamicWsUrl: "WS_URL", dynamicCtrNetwork: "container network" };

export const castAnonymousDynamicArgs: ResourceValidationPolicy = {
  name: NAME,
  description: "A casting config that allows anonymous access does not take ws_url or ctr_network from the URL (dynamicWsUrl, dynamicCtrNetwork).",
  enforcementLevel: "advisory",
  severity: "high",
  tags: ["kasm", "casting", "hardening"],
  remediationSteps: "Set dynamicWsUrl and dynamicCtrNetwork to false on anonymous casting configs, or fix wsUrl in the config.",
  configSchema: {
    properties: {
      ...EXEMPT_PROPERTY,
      allowedArguments: {
        type: "array",
        items: { type: "string", enum: [...FLAGS] },
        description: "Flags that may be on for anonymous links.",
      },
    },
  },
  validateResource: forKind("CastConfig", (props, config) => {
    const allowed = Array.isArray(config.allowedArguments) ? (config.allowedArguments as string[]) : [];
    const checked = FLAGS.filter((f) => !allowed.includes(f));
    const on = checked.filter((f) => flag(props, f) === true);
    return verdict(
      tri.and(flag(props, "allowAnonymous"), tri.or(...checked.map((f) => flag(props, f)))),
      `allowAnonymous is true and ${on.join(" and ")} let${on.length > 1 ? "" : "s"} the caller set the session's ${on.map((f) => WHAT[f]).join(" and ")} from the URL. Turn ${on.length > 1 ? "them" : "it"} off.`,
      "allowAnonymous or the dynamic argument flags are not known yet",
    );
  }),
};
