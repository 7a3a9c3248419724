/**
 * An installation built by hand, as a team arrives with it: users in groups with attributes set,
 * users assigned to servers (one draining), two workspace images, staging configs, egress providers
 * with gateways, mappings and credentials, and, on a product-speaking emulator, groups made through
 * the API, the groups that may launch each workspace, and cast configs. Built over the API (with
 * the emulator's own vocabulary, through `specCall`), so that what `kasm-import` reads is what Kasm
 * answers. Shared by the importer's tests and its benchmark.
 */
import { startTestEmulator, type TestEmulator, type TestEmulatorOptions } from "./emulator";

/** The secrets the installation holds, by what they are: a test gives them to the generated program's configuration. */
export interface InstallationSecrets {
  /** Egress credential name -> its WireGuard private key. */
  readonly wireguardKeys: Record<string, string>;
  /** Egress credential name -> its password. */
  readonly passwords: Record<string, string>;
}

/** What {@link buildInstallation} made. */
export interface Installation {
  readonly emulator: TestEmulator;
  readonly secrets: InstallationSecrets;
  readonly usernames: readonly string[];
}

const hex = (prefix: string, n: number) => `${prefix}${String(n).padStart(32 - prefix.length, "0")}`;
const TEAMS = ["Engineering", "Support", "Finance"];
const ZONES = ["default", "eu-west", "us-east"];
const IMAGES = [
  { name: "kasmweb/chrome:1.16.0", friendly_name: "Chrome" },
  { name: "kasmweb/desktop:1.16.0", friendly_name: "Ubuntu Desktop" },
];

/** Fail with the answer when an API call did not succeed. */
function ok(res: { status: number; body: any }, what: string): any {
  if (res.status !== 200 || (res.body && res.body.error_message)) throw new Error(`${what}: ${res.status} ${JSON.stringify(res.body)}`);
  return res.body;
}

/**
 * Start an emulator holding `users` users (three teams, attributes on every third, two assigned
 * to servers), three staging configs, two egress providers with two gateways each, a mapping and
 * a credential each; with `apiNames: "product"`, two groups made with create_group, three group
 * authorisations of the images (add_images_group) and two cast configs too. `apiKeys` are added
 * to the admin key.
 */
export async function buildInstallation(
  users: number,
  options: TestEmulatorOptions = {},
  apiKeys: { name: string; key: string; secret: string; permissions: string[] }[] = [],
): Promise<Installation> {
  const usernames = Array.from({ length: users }, (_, i) => `user${String(i).padStart(4, "0")}`);
  const emulator = await startTestEmulator(
    {
      apiKeys,
      groups: TEAMS.map((name, i) => ({ group_id: hex("9a", i + 1), name })),
      users: usernames.map((username, i) => ({
        username,
        first_name: `First${i}`,
        last_name: `Last${i}`,
        ...(i % 5 === 0 ? { organization: "Example Org" } : {}),
        ...(i % 7 === 0 ? { phone: `+1 555 01${String(i % 100).padStart(2, "0")}` } : {}),
        groups: i % 10 === 0 ? [TEAMS[i % 3], TEAMS[(i + 1) % 3]] : [TEAMS[i % 3]],
      })),
      zones: ZONES.map((zone_name, i) => ({ zone_id: hex("2b", i + 1), zone_name })),
      images: IMAGES.map((image, i) => ({ image_id: hex("3c", i + 1), ...image })),
      servers: [
        { server_id: hex("4d", 1), hostname: "desk-01.example.org", friendly_name: "desk-01", zone_name: "default", assigned_users: usernames.slice(0, 1) },
        {
          server_id: hex("4d", 2),
          hostname: "desk-02.example.org",
          friendly_name: "desk-02",
          zone_name: "default",
          assigned_users: usernames.slice(1, 2),
          is_draining: true,
        },
      ],
    },
    options,
  );
  const call = (operation: Parameters<TestEmulator["specCall"]>[0], body: Record<string, unknown>) =>
    emulator.specCall(operation, body).then((res) => ok(res, operation));

  const ids = new Map<string, string>();
  for (let page = 0; ids.size < usernames.length; page++) {
    const { users: onPage } = await call("get_users", { page, page_size: 1000, sort_by: "username", sort_direction: "asc" });
    if (onPage.length === 0) break;
    for (const user of onPage) ids.set(user.username, user.user_id);
  }
  for (let i = 0; i < usernames.length; i += 3)
    await call("update_user_attributes", {
      target_user_attributes: { user_id: ids.get(usernames[i]), show_tips: i % 2 === 0, toggle_control_panel: true, default_image: hex("3c", 1) },
    });

  for (const [i, [zone, image]] of [
    [1, 1],
    [1, 2],
    [2, 1],
  ].entries())
    await call("create_staging_config", {
      target_staging_config: {
        zone_id: hex("2b", zone),
        image_id: hex("3c", image),
        num_sessions: i + 1,
        expiration: 0.5 + i,
        allow_ws_audio: i % 2 === 0,
        allow_ws_uploads: false,
      },
    });

  const secrets: InstallationSecrets = { wireguardKeys: {}, passwords: {} };
  for (const [p, name] of ["Corporate VPN", "Partner Proxy"].entries()) {
    const wireguard = p === 0;
    const provider = (
      await call("create_egress_provider", { target_egress_provider: { name, egress_provider_type: wireguard ? "wireguard" : "openvpn", enabled: true } })
    ).egress_provider;
    const gateways: string[] = [];
    for (const city of ["Frankfurt", "Amsterdam"]) {
      const gateway = (
        await call("create_egress_gateway", {
          target_egress_gateway: {
            egress_provider_id: provider.egress_provider_id,
            name: `${city} ${p + 1}`,
            enabled: true,
            country: city === "Frankfurt" ? "DE" : "NL",
            city,
            config: wireguard
              ? `[Interface]\nAddress = 10.64.0.2/32\n\n[Peer]\nEndpoint = ${city.toLowerCase()}.example.org:51820`
              : "client\nremote vpn.example.org 1194",
          },
        })
      ).egress_gateway;
      gateways.push(gateway.egress_gateway_id);
    }
    await call("create_egress_provider_mapping", {
      target_egress_provider_mapping: wireguard
        ? { egress_provider_id: provider.egress_provider_id, group_id: hex("9a", 2), enabled: true, allow_all_gateways: false, selected_gateways: gateways }
        : { egress_provider_id: provider.egress_provider_id, user_id: ids.get(usernames[2]), enabled: true, allow_all_gateways: true },
    });
    const credentialName = wireguard ? "support-team" : "partner-login";
    if (wireguard) secrets.wireguardKeys[credentialName] = "cGFzc3dvcmQtbm90LWEtcmVhbC1rZXktZm9yLXRlc3Q=";
    else secrets.passwords[credentialName] = "partner-password-not-real";
    await call("create_egress_credential", {
      target_egress_credential: {
        egress_provider_id: provider.egress_provider_id,
        name: credentialName,
        enabled: true,
        ...(wireguard
          ? { group_id: hex("9a", 2), wireguard_private_key: secrets.wireguardKeys[credentialName], allow_all_gateways: true }
          : {
              user_id: ids.get(usernames[2]),
              username: "partner",
              password: secrets.passwords[credentialName],
              allow_all_gateways: false,
              selected_gateways: gateways.slice(0, 1),
            }),
        limit_active_connections: wireguard,
        ...(wireguard ? { active_connection_limit: 25 } : {}),
      },
    });
  }

  if (emulator.apiNames === "product") {
    for (const [i, name] of ["Contractors", "Kiosks"].entries())
      await call("create_group", { target_group: { name, priority: 200 + i, description: `${name}, made in the UI` } });
    const groups = (await call("get_groups", {})).groups as { group_id: string; name: string }[];
    const kiosks = groups.find((g) => g.name === "Kiosks")!.group_id;
    // Who may launch what, as set in the UI: the kiosks Chrome, Engineering both workspaces.
    for (const [group, image] of [
      [kiosks, hex("3c", 1)],
      [hex("9a", 1), hex("3c", 1)],
      [hex("9a", 1), hex("3c", 2)],
    ])
      await call("add_images_group", { target_group: { group_id: group }, target_image: { image_id: image } });
    for (const [i, key] of ["lobby-kiosk", "partner-demo"].entries())
      await call("create_cast_config", {
        target_cast_config: {
          casting_config_name: key === "lobby-kiosk" ? "Lobby kiosk" : "Partner demo",
          image_id: hex("3c", i + 1),
          key,
          allowed_referrers: ["intranet.example.org"],
          limit_sessions: i === 0,
          ...(i === 0 ? { session_remaining: 10 } : {}),
          allow_anonymous: true,
          group_id: kiosks,
          allow_ws_audio: true,
        },
      });
  }
  emulator.requests.length = 0;
  return { emulator, secrets, usernames };
}
