/**
 * The package's documentation as a user reads it from node_modules or the npm page: every
 * relative link in a packed Markdown file (README.md first) leads to a file or folder that the
 * package contains, as `npm pack --dry-run --json` lists it. A link to something the package does
 * not ship (examples/, the sources) would be broken there, even though it works in the repository.
 * Likewise every `pulumi-kasm/...` module the documentation imports is one the package exports
 * (`pulumi-kasm/dist/...` is not: Node refuses it with ERR_PACKAGE_PATH_NOT_EXPORTED).
 */
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { beforeAll, describe, expect, it } from "vitest";
import { REPO } from "./helpers";

const run = promisify(execFile);
let packed: string[] = [];

beforeAll(async () => {
  // --ignore-scripts: list what `files` selects without rebuilding dist/.
  const { stdout } = await run("npm", ["pack", "--dry-run", "--json", "--ignore-scripts", "--loglevel=error"], { cwd: REPO });
  packed = (JSON.parse(stdout) as { files: { path: string }[] }[])[0].files.map((f) => f.path);
}, 120_000);

/** The relative link targets of a Markdown text (inline links and images), without anchors; code blocks and spans left out. */
function relativeLinks(markdown: string): string[] {
  const prose = markdown.replace(/```[\s\S]*?```/g, "").replace(/`[^`\n]*`/g, "");
  const targets = [...prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1]);
  return targets.filter((t) => !/^[a-z][a-z0-9+.-]*:/i.test(t) && !t.startsWith("#")).map((t) => t.split("#")[0]);
}

/** Whether `target`, relative to the Markdown file at `from`, is a packed file or a folder holding one. */
function resolves(from: string, target: string): boolean {
  const wanted = path.posix.normalize(path.posix.join(path.posix.dirname(from), target)).replace(/\/$/, "");
  return packed.some((f) => f === wanted || f.startsWith(`${wanted}/`));
}

describe("links in the packed documentation", () => {
  it("README.md is packed, with links to check", () => {
    expect(packed).toContain("README.md");
    expect(relativeLinks(readFileSync(path.join(REPO, "README.md"), "utf8")).length).toBeGreaterThan(0);
  });

  it("every relative link in every packed Markdown file resolves to a packed file", () => {
    const broken: string[] = [];
    for (const file of packed.filter((f) => f.endsWith(".md"))) {
      for (const target of relativeLinks(readFileSync(path.join(REPO, file), "utf8"))) if (!resolves(file, target)) broken.push(`${file} -> ${target}`);
    }
    expect(broken).toEqual([]);
  });

  it("every `pulumi-kasm/...` import the packed Markdown shows is an entry point of the package's exports", () => {
    const exported = Object.keys((JSON.parse(readFileSync(path.join(REPO, "package.json"), "utf8")) as { exports: Record<string, unknown> }).exports);
    const wrong: string[] = [];
    let seen = 0;
    for (const file of packed.filter((f) => f.endsWith(".md"))) {
      for (const m of readFileSync(path.join(REPO, file), "utf8").matchAll(/["'](pulumi-kasm\/[^"'\s]+)["']/g)) {
        seen++;
        if (!exported.includes(`./${m[1].slice("pulumi-kasm/".length)}`)) wrong.push(`${file}: ${m[1]}`);
      }
    }
    expect(seen).toBeGreaterThan(0);
    expect(wrong).toEqual([]);
  });

  it("the checker finds a link to what the package does not ship", () => {
    const links = relativeLinks("See [the benchmarks](bench/provider.ts) and [a section](#benchmarks), `[not](a-link)` or [site](https://kasmweb.com).");
    expect(links).toEqual(["bench/provider.ts"]);
    expect(resolves("README.md", "bench/provider.ts")).toBe(false);
    expect(resolves("README.md", "policy/README.md")).toBe(true);
  });
});
