/**
 * The one generic writer of the program's areas. An area says only what is its own: which records
 * it declares from, why a record cannot be declared, the resource's name, its id as the kind's
 * provider gives it, and its inputs (the kind's own reading of the record, with references to what
 * the program declares elsewhere). Everything else is done here, the same way for every area:
 * whether the area is wanted and was read, unique names and variables, the declaration with its
 * entry for `pulumi import --file` and its link for later sections, the summary's line with each
 * reason counted, and the section. Areas that name the same section one after the other share it
 * (the four egress areas). The users, with their data files and loops, are written by steps of
 * their own (`users-and-groups.ts`): a step is any function of the writer.
 */
import type { KasmKind } from "../../permissions/kinds";
import type { ImportKind } from "../kinds";
import type { Inventory } from "../read";
import type { Declaration, ProgramWriter, Value } from "./writer";

// --- types ---------------------------------------------------------------------------------------

/** A section of the program: its title (the rule above it) and the comment under the rule. */
export interface Section {
  readonly title: string;
  readonly comment: string;
}

/** One importable area, declared as one kind from the records the reader gave. */
export interface Area<Record> {
  /** The area, as `--only` and `--except` name it. */
  readonly area: ImportKind;
  /** The kind each record is declared as. */
  readonly kind: KasmKind;
  /** The section its declarations go in; consecutive areas with the same section share it. */
  readonly section: Section;
  /**
   * With a prefix (for names that would not start with a letter), each declaration gets a variable,
   * through which later sections refer to the object (see `ProgramWriter.link`).
   */
  readonly variablePrefix?: string;
  /** The records to declare from, or undefined when the area was not read (the summary says so). */
  records(inventory: Inventory): readonly Record[] | undefined;
  /** Why a record cannot be declared (counted in the summary, one line a reason), or undefined. */
  notDeclared?(record: Record, w: ProgramWriter): string | undefined;
  /** The natural key the resource's name is made from, and the fallback when it gives no name. */
  name(record: Record, w: ProgramWriter): readonly [key: string, fallback: string];
  /** The object's id, as the kind's provider gives it (what `pulumi import` takes). */
  id(record: Record): string;
  /** The declaration's inputs; `name` is the resource's name (secret settings are named after it). */
  inputs(record: Record, w: ProgramWriter, name: string): { readonly [input: string]: Value | undefined };
}

/** One step of the generation: a generic area, or a function that writes into the writer itself. */
export type Step = Area<unknown> | ((w: ProgramWriter) => void);

// --- writing -------------------------------------------------------------------------------------

/** An area's declarations, each linked and listed for `pulumi import`, and its line of the summary. */
function declarations<Record>(w: ProgramWriter, area: Area<Record>): Declaration[] {
  if (!w.wants(area.area)) return [];
  const records = area.records(w.inventory);
  if (records === undefined) {
    w.row(area.area, undefined, 0);
    return [];
  }
  const notDeclared = new Map<string, number>();
  const lines: Declaration[] = [];
  for (const record of records) {
    const why = area.notDeclared?.(record, w);
    if (why !== undefined) {
      notDeclared.set(why, (notDeclared.get(why) ?? 0) + 1);
      continue;
    }
    const name = w.resourceName(...area.name(record, w));
    const variable = area.variablePrefix === undefined ? undefined : w.names.variable(name, area.variablePrefix);
    lines.push(w.declare(variable, area.kind, name, area.id(record), area.inputs(record, w, name)));
  }
  w.row(
    area.area,
    records.length,
    lines.length,
    [...notDeclared].map(([why, count]) => `${count}: ${why}`),
  );
  return lines;
}

/** Run the steps in order: the program's sections, its files and the summary, in the writer. */
export function writeSteps(w: ProgramWriter, steps: readonly Step[]): void {
  let open: { section: Section; lines: Declaration[] } | undefined;
  const close = () => {
    if (open && open.lines.length > 0) w.section(open.section.title, open.section.comment, open.lines);
    open = undefined;
  };
  for (const step of steps) {
    if (typeof step === "function") {
      close();
      step(w);
      continue;
    }
    const lines = declarations(w, step);
    if (open?.section !== step.section) {
      close();
      open = { section: step.section, lines: [] };
    }
    open.lines.push(...lines);
  }
  close();
}
