/**
 * The name a misspelt word most likely meant, for messages that say "did you mean ...?": the
 * permission names of the permissions pack's config, the settings of a policy.
 */
import { closest, distance } from "fastest-levenshtein";

/**
 * The one of `names` that `word` most likely meant: the closest by edit distance, case aside, when
 * at most a third of the word's letters apart (at least two, so that a swapped pair of letters
 * still counts); otherwise undefined.
 *
 * @example closestName("permisions", ["permissions", "readOnly"]) // "permissions"
 */
export function closestName<T extends string>(word: string, names: readonly T[]): T | undefined {
  if (names.length === 0) return undefined;
  const lower = word.toLowerCase();
  const best = closest(
    lower,
    names.map((n) => n.toLowerCase()),
  );
  if (distance(lower, best) > Math.max(2, Math.floor(word.length / 3))) return undefined;
  return names.find((n) => n.toLowerCase() === best);
}
