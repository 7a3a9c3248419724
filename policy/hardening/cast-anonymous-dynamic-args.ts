/**
 * `cast-anonymous-dynamic-args`: a casting link open to anonymous users does not let the caller
 * choose the session's `ws_url` (`dynamicWsUrl`) or container network (`dynamicCtrNetwork`).
 *
 * Why: with those flags the URL's query arguments set the session's WS_URL environment variable
 * or the Docker network it joins; an anonymous caller could point the session at a page of their
 * choosing or at an internal network. `allowedArguments` lists flags accepted on purpose.
 */
import { flag, resourceRule, tri, verdict } from "./common";

const FLAGS = ["dynamicWsUrl", "dynamicCtrNetwork"] as const;

const WHAT: Record<(typeof FLAGS)[number], string> = { dynamicWsUrl: "WS_URL", dynamicCtrNetwork: "container network" };

/** The `cast-anonymous-dynamic-args` policy: the rule above, on each CastConfig. */
export const castAnonymousDynamicArgs = resourceRule({
  name: "cast-anonymous-dynamic-args",
  kind: "CastConfig",
  description: "A casting config that allows anonymous access does not take ws_url or ctr_network from the URL (dynamicWsUrl, dynamicCtrNetwork).",
  severity: "high",
  area: "casting",
  remediationSteps: "Set dynamicWsUrl and dynamicCtrNetwork to false on anonymous casting configs, or fix wsUrl in the config.",
  config: {
    allowedArguments: {
      type: "array",
      items: { type: "string", enum: [...FLAGS] },
      description: "Flags that may be on for anonymous links.",
    },
  },
  check: (cast, config) => {
    const allowed = Array.isArray(config.allowedArguments) ? (config.allowedArguments as string[]) : [];
    const checked = FLAGS.filter((f) => !allowed.includes(f));
    const on = checked.filter((f) => flag(cast[f]) === true);
    return verdict(
      tri.and(flag(cast.allowAnonymous), tri.or(...checked.map((f) => flag(cast[f])))),
      `allowAnonymous is true and ${on.join(" and ")} let${on.length > 1 ? "" : "s"} the caller set the session's ${on.map((f) => WHAT[f]).join(" and ")} from the URL. Turn ${on.length > 1 ? "them" : "it"} off.`,
      "allowAnonymous or the dynamic argument flags are not known yet",
    );
  },
});
