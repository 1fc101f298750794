// The check of a display name, the same as the server's (server/names.py, whose docstring
// gives the rules): NFKC, outer spaces stripped, 2-24 code points, letters and digits of any
// language with their combining marks, the separators space _ . -, no invisible character, no
// mix of Latin, Greek and Cyrillic. tests/name_cases.json runs one table of cases through both.
// Whether a name is free (or looks like one in use) only the server knows.

export const MIN_LENGTH = 2;
export const MAX_LENGTH = 24;
const SEPARATORS = new Set([" ", "_", ".", "-"]);
const INVISIBLE = /[\p{Cc}\p{Cf}\p{Co}\p{Cs}\p{Cn}\p{Zl}\p{Zp}]/u;
const MARK = /\p{M}/u;
const LETTER = /\p{L}/u;
const ALLOWED = /[\p{L}\p{M}\p{Nd}]/u;
const SCRIPTS = [/\p{Script=Latin}/u, /\p{Script=Greek}/u, /\p{Script=Cyrillic}/u];

/** The form of `name` that is checked, stored and shown: NFKC, outer spaces stripped. */
export function normalize(name) {
  return name.normalize("NFKC").replace(/^ +| +$/g, "");
}

/** Why the normalised `name` is not acceptable (the server's reason word), or null. */
export function problem(name) {
  const chars = [...name];
  if (chars.length < MIN_LENGTH) return "too_short";
  if (chars.length > MAX_LENGTH) return "too_long";
  if (chars.some((c) => INVISIBLE.test(c))) return "invisible";
  if (chars.some((c, i) => MARK.test(c) && (i === 0 || !(LETTER.test(chars[i - 1]) || MARK.test(chars[i - 1]))))) {
    return "mark_alone";
  }
  if (chars.some((c) => !ALLOWED.test(c) && !SEPARATORS.has(c))) return "character";
  const separatorAt = (i) => SEPARATORS.has(chars[i]);
  if (separatorAt(0) || separatorAt(chars.length - 1)) return "separators";
  if (chars.some((c, i) => i > 0 && separatorAt(i) && separatorAt(i - 1))) return "separators";
  const letters = chars.filter((c) => LETTER.test(c));
  if (SCRIPTS.filter((script) => letters.some((c) => script.test(c))).length > 1) return "scripts";
  return null;
}
