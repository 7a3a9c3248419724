/**
 * How the product reads an image's settings from `target_image` (create_image, update_image), as
 * the 1.15 API server does (decompile, `admin_api.py`; `data/access_postgres.py`
 * create_update_image; `utils.py` validate_volume_config and parse_multiline_input):
 *
 * - the configs (`volume_mappings`, `run_config`, `exec_config`, `launch_config`) travel as JSON
 *   text, `""` for none; anything else is refused with 200 `Invalid json format for <field>`;
 * - `categories` travel as one string, a category per line;
 * - every field goes to the product's image store as a keyword argument, so a field it does not
 *   take fails the call (its admin UI strips the answer-only fields before update_image).
 *
 * The body arrives in the spec's names (product mode renames `docker_*` to `ctr_*` first);
 * messages name fields as the product does.
 */
import { z } from "zod";
import { InvalidRequest, RefusedWith200 } from "../errors";
import { canonicalId, hyphenatedId, type ImageSettings, type JsonValue } from "../store";
import { bool, decimal, int, parse, text } from "./common";

/** The product's names of the fields the emulator keeps under the spec's. */
const PRODUCT_NAMES: Readonly<Record<string, string>> = { ctr_registry: "docker_registry", ctr_user: "docker_user", ctr_token: "docker_token" };

/** A field as the product names it. */
function productName(field: string): string {
  return PRODUCT_NAMES[field] ?? field;
}

/** The configs that travel as JSON text, in the order 1.15 reads them. */
const JSON_FIELDS = ["volume_mappings", "run_config", "exec_config", "launch_config"] as const;

/** The scalar settings and their wire types (numbers and booleans also as text, as everywhere). */
const Scalars = z.object({
  name: text.optional(),
  friendly_name: text.optional(),
  description: text.optional(),
  image_src: text.optional(),
  cores: decimal.nullable().optional(),
  memory: int.nullable().optional(),
  x_res: int.nullable().optional(),
  y_res: int.nullable().optional(),
  enabled: bool.nullable().optional(),
  ctr_registry: text.optional(),
  ctr_user: text.optional(),
  ctr_token: text.optional(),
  hash: text.optional(),
  restrict_to_network: bool.nullable().optional(),
  restrict_network_names: z.array(z.string()).nullable().optional(),
  restrict_to_server: bool.nullable().optional(),
  server_id: text.optional(),
  restrict_to_zone: bool.nullable().optional(),
  zone_id: text.optional(),
  server_pool_id: text.optional(),
  persistent_profile_path: text.optional(),
  filter_policy_id: text.optional(),
  filter_policy_force_disabled: bool.nullable().optional(),
  allow_network_selection: bool.nullable().optional(),
  session_time_limit: z
    .union([int, z.literal("")])
    .nullable()
    .optional(),
  gpu_count: int.nullable().optional(),
  require_gpu: bool.nullable().optional(),
  hidden: bool.nullable().optional(),
  notes: text.optional(),
  image_type: text.optional(),
  link_url: text.optional(),
  cpu_allocation_method: text.optional(),
  uncompressed_size_mb: int.nullable().optional(),
  categories: z.string().optional(),
});

/**
 * Every field the product's image store takes: the scalars, the JSON configs, the target's
 * `image_id`, and `image_name`, which 1.15 takes and stores nowhere.
 */
const TAKEN = new Set<string>([...Object.keys(Scalars.shape), ...JSON_FIELDS, "image_id", "image_name"]);

/** Why a field the store does not take may have been sent, for the refusal. */
const HINTS: Readonly<Record<string, string>> = {
  docker_password: "the registry password is docker_token",
  network_name: "the product takes restrict_network_names",
  available: "an answer's field: leave it out",
  zone_name: "an answer's field: leave it out",
  imageAttributes: "an answer's field: leave it out",
  persistent_profile_config: "an answer's field: leave it out",
  default_category: "an answer's field: leave it out",
  filter_policy_name: "an answer's field: leave it out",
  server: "an answer's field: leave it out",
  server_pool: "an answer's field: leave it out",
};

/** The settings of `target_image`, or the product's refusal. `image_id` is the caller's to read. */
export function readImageSettings(target: Record<string, unknown>, operation: "create_image" | "update_image"): ImageSettings {
  for (const field of Object.keys(target)) {
    if (TAKEN.has(field) && !(field === "image_id" && operation === "create_image")) continue;
    const why =
      field === "image_id" ? "create_image makes a new image; change one with update_image" : (HINTS[field] ?? "the product fails on a field it does not take");
    throw new InvalidRequest(`Invalid Request: target_image.${productName(field)}: not an image setting (${why})`);
  }
  const configs: Partial<Record<(typeof JSON_FIELDS)[number], JsonValue>> = {};
  for (const field of JSON_FIELDS) if (field in target) configs[field] = jsonConfig(field, target[field]);
  let scalars: z.infer<typeof Scalars>;
  try {
    scalars = parse(Scalars, target, "target_image");
  } catch (error) {
    if (error instanceof InvalidRequest) throw new InvalidRequest(error.message.replace(/\bctr_(registry|user|token)\b/, (name) => productName(name)));
    throw error;
  }
  const { categories, session_time_limit, filter_policy_id, ...rest } = scalars;
  return {
    ...rest,
    ...configs,
    ...(categories === undefined ? {} : { categories: categoryLines(categories) }),
    // "" clears the limit; null (or nothing) keeps it.
    ...(session_time_limit === undefined || session_time_limit === null ? {} : { session_time_limit: session_time_limit === "" ? null : session_time_limit }),
    ...filterPolicy(filter_policy_id, rest.filter_policy_force_disabled),
  };
}

/**
 * A JSON config: `""` is none (`{}`); other text is parsed; anything else, or text that is not
 * JSON, is refused as 1.15 refuses it. Volume mappings are checked as 1.15's
 * validate_volume_config does; anything it would fail on is the JSON refusal too.
 */
function jsonConfig(field: (typeof JSON_FIELDS)[number], value: unknown): JsonValue {
  if (value === "") return {};
  let parsed: JsonValue;
  try {
    if (typeof value !== "string") throw new TypeError("not JSON text");
    parsed = JSON.parse(value) as JsonValue;
  } catch {
    throw new RefusedWith200(`Invalid json format for ${field}`);
  }
  if (field === "volume_mappings") {
    const problem = volumeProblem(parsed);
    if (problem) throw new RefusedWith200(`Invalid volume_mappings: ${problem}`);
  }
  return parsed;
}

/** The first problem 1.15 finds with volume mappings, or undefined. */
function volumeProblem(config: JsonValue): string | undefined {
  if (typeof config !== "object" || config === null || Array.isArray(config)) throw new RefusedWith200("Invalid json format for volume_mappings");
  const required = ["bind", "mode", "uid", "gid"];
  for (const [path, mount] of Object.entries(config)) {
    if (typeof mount !== "object" || mount === null || Array.isArray(mount)) throw new RefusedWith200("Invalid json format for volume_mappings");
    const missing = required.filter((key) => !(key in mount));
    if (missing.length > 0) return `Config ${path} is missing one or more required options {${missing.map((k) => `'${k}'`).join(", ")}}`;
    if (!Number.isInteger(mount.uid) || typeof mount.uid !== "number") return "uid must be an integer";
    if (!Number.isInteger(mount.gid) || typeof mount.gid !== "number") return "gid must be an integer";
    if (mount.mode !== "rw" && mount.mode !== "ro") return "mode must be either ['rw', 'ro']";
    const timeout = mount.timeout;
    if (timeout !== undefined && timeout !== null) {
      if (typeof timeout !== "number") return "timeout must be an number";
      if (timeout <= 0) return "timeout must be greater than 0";
    }
    if (mount.required !== undefined && mount.required !== null && typeof mount.required !== "boolean") return "required must be a bool";
  }
  return undefined;
}

/** 1.15's parse_multiline_input (case kept): one category per line, repeats dropped, blank lines dropped. */
function categoryLines(value: string): string[] {
  return [...new Set(value.split("\n"))].map((line) => line.trim()).filter((line) => line !== "");
}

/**
 * The web filter policy: `force_disabled` or `inherit` set the flag; the emulator models no
 * filter policies, so any other id is refused as 1.15 refuses an unknown one.
 */
function filterPolicy(id: string | null | undefined, forceDisabled: boolean | null | undefined): Pick<ImageSettings, "filter_policy_force_disabled"> {
  if (id === "force_disabled") return { filter_policy_force_disabled: true };
  if (id === "inherit" || id === "") return { filter_policy_force_disabled: false };
  if (id === undefined || id === null) return forceDisabled === undefined ? {} : { filter_policy_force_disabled: forceDisabled };
  const canonical = canonicalId(id);
  if (!canonical) throw new RefusedWith200("Invalid Request: filter_policy_id must be a uuid");
  throw new RefusedWith200(`Invalid Request: No Filter policy exists with id (${hyphenatedId(canonical)})`);
}
