/**
 * A workspace registry served on 127.0.0.1 (never any other address), as a static site the way
 * Kasm reads one: `versions.txt` (one schema version a line) and `1.0/list.json` ({name, icon,
 * description, list_url, workspaces}). Its `list_url` is its own URL. Tests change what it serves
 * (`site.workspaces`, `site.versions`) and read which files were asked for (`site.requests`).
 */
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

/** One workspace a registry offers, in the fields Kasm's registries write (a subset). */
export interface RegistryWorkspace {
  name: string;
  friendly_name: string;
  description: string;
  image_src: string;
  docker_registry?: string;
  categories?: string[];
  [field: string]: unknown;
}

/** A registry site being served. */
export interface RegistrySite {
  /** Its URL, with the trailing slash Kasm adds (`http://127.0.0.1:<port>/`). */
  readonly url: string;
  /** What `versions.txt` holds. */
  versions: string;
  /** The workspaces `1.0/list.json` offers. */
  workspaces: RegistryWorkspace[];
  /** The list's name. */
  name: string;
  /** The `list_url` the list names; default: the site's URL. */
  listUrl?: string;
  /** The paths asked for, in order. */
  readonly requests: string[];
  close(): Promise<void>;
}

/** Two workspaces, as a small registry offers them. */
export const SAMPLE_WORKSPACES: RegistryWorkspace[] = [
  {
    name: "acme/editor:1.0.0",
    friendly_name: "Acme Editor",
    description: "A text editor",
    image_src: "img/editor.png",
    docker_registry: "https://index.docker.io/v1/",
    categories: ["Development"],
  },
  {
    name: "acme/browser:1.0.0",
    friendly_name: "Acme Browser",
    description: "A web browser",
    image_src: "img/browser.png",
    docker_registry: "https://index.docker.io/v1/",
    categories: ["Productivity"],
  },
];

/** Serve a registry on 127.0.0.1 at a free port. */
export async function serveRegistry(workspaces: RegistryWorkspace[] = SAMPLE_WORKSPACES, name = "Acme Registry"): Promise<RegistrySite> {
  const requests: string[] = [];
  const site = { versions: "1.0\n", workspaces: structuredClone(workspaces), name, requests } as RegistrySite & { url: string };
  const server: Server = createServer((req, res) => {
    const path = req.url ?? "/";
    requests.push(path);
    if (path === "/versions.txt") return void res.writeHead(200, { "content-type": "text/plain" }).end(site.versions);
    if (path === "/1.0/list.json")
      return void res.writeHead(200, { "content-type": "application/json" }).end(
        JSON.stringify({
          name: site.name,
          icon: "icon.png",
          description: "Workspaces for tests",
          list_url: site.listUrl ?? site.url,
          contact_url: "",
          workspaces: site.workspaces,
        }),
      );
    res.writeHead(404).end("not found");
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  site.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  site.close = () => new Promise<void>((resolve) => server.close(() => resolve()));
  return site;
}
