/**
 * The installation the tests of `kasm-import --language` read: a group, a workspace the group may
 * launch, two users (one in the group), a staging config. Every installation seeded with it holds
 * the same names (`Engineering`, `Chrome`, `ada@corp.example`) under ids of its own, which a fleet
 * in one program must keep apart.
 */
export const LANGUAGE_SEED = {
  zones: [{ zone_name: "default" }],
  groups: [{ name: "Engineering" }],
  images: [{ name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome", groups: ["Engineering"] }],
  users: [
    { username: "ada@corp.example", first_name: "Ada", last_name: "Lovelace", groups: ["Engineering"] },
    { username: "grace", first_name: "Grace", groups: [] as string[] },
  ],
  stagingConfigs: [{ zone_name: "default", image_name: "kasmweb/chrome:1.16.0", num_sessions: 2, expiration: 1 }],
};

/** The environment kasm-import reads an installation's settings from: `KASM_*`, or `KASM_<PREFIX>_*` for one of a fleet. */
export function installationEnv(
  emulator: { readonly url: string; readonly apiNames: string },
  key: { readonly key: string; readonly secret: string },
  prefix?: string,
): NodeJS.ProcessEnv {
  const stem = prefix === undefined ? "KASM_" : `KASM_${prefix.toUpperCase()}_`;
  return {
    [`${stem}BASE_URL`]: emulator.url,
    [`${stem}API_KEY`]: key.key,
    [`${stem}API_KEY_SECRET`]: key.secret,
    [`${stem}API_NAMES`]: emulator.apiNames,
  };
}
