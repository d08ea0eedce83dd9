import { deepFreeze } from '../core/freeze';
/**
 * CPA 2.1 product codes as Eurostat writes them in the supply and use tables (`prd_amo` of `naio_10_cp15`):
 * `CPA_A01`, `CPA_C10-12` (a range of divisions), `CPA_C31_32` (a list), `CPA_B` (a section), `CPA_L68A` (a
 * part of a division), `CPA_TOTAL`. CPA 2.1 follows NACE Rev. 2 down to the division, so each code stands for
 * a set of NACE divisions; that is how it reaches the EXIOBASE products of the NACE concordance.
 */

/** NACE Rev. 2 sections and their divisions (the classification's own structure, Eurostat 2008). */
export const NACE_SECTIONS: Readonly<Record<string, readonly string[]>> = /* @__PURE__ */ deepFreeze({
  A: ['01', '02', '03'],
  B: ['05', '06', '07', '08', '09'],
  C: Array.from({ length: 24 }, (_, index) => String(10 + index)),
  D: ['35'],
  E: ['36', '37', '38', '39'],
  F: ['41', '42', '43'],
  G: ['45', '46', '47'],
  H: ['49', '50', '51', '52', '53'],
  I: ['55', '56'],
  J: ['58', '59', '60', '61', '62', '63'],
  K: ['64', '65', '66'],
  L: ['68'],
  M: ['69', '70', '71', '72', '73', '74', '75'],
  N: ['77', '78', '79', '80', '81', '82'],
  O: ['84'],
  P: ['85'],
  Q: ['86', '87', '88'],
  R: ['90', '91', '92', '93'],
  S: ['94', '95', '96'],
  T: ['97', '98'],
  U: ['99'],
});

const SECTIONS = Object.keys(NACE_SECTIONS);
const SECTION_OF = new Map(
  Object.entries(NACE_SECTIONS).flatMap(([section, divisions]) =>
    divisions.map((division) => [division, section] as const),
  ),
);

/** What a CPA code covers. */
export interface CpaCode {
  /** The code as written (`CPA_C10-12`). */
  code: string;
  /** NACE divisions covered, sorted (`['10', '11', '12']`). */
  divisions: string[];
  /** Set for a part of one division (`CPA_L68A` → `A`): it covers only some of `divisions`. */
  part?: string;
}

const PART = /^([A-U])(\d{2})?([A-Z])?$/;
const NEXT = /^([A-U])?(\d{2})?$/;

/**
 * The NACE divisions a CPA code covers, or a reason it is not a CPA 2.1 code. `CPA_TOTAL` is `total`.
 *
 * @example
 * ```ts
 * parseCpaCode('CPA_C10-12'); // { code: 'CPA_C10-12', divisions: ['10', '11', '12'] }
 * parseCpaCode('CPA_L68A'); // { code: 'CPA_L68A', divisions: ['68'], part: 'A' }
 * ```
 */
export function parseCpaCode(code: string): CpaCode | 'total' | { problem: string } {
  const notCpa = {
    problem: `${JSON.stringify(code)} is not a CPA 2.1 product code (CPA_A01, CPA_C10-12, …)`,
  };
  if (!code.startsWith('CPA_')) return notCpa;
  const body = code.slice(4);
  if (body === 'TOTAL') return 'total';
  const tokens = body.split(/([-_])/);
  const first = PART.exec(tokens[0] ?? '');
  if (first === null) return notCpa;
  const [, section, division, part] = first as unknown as [string, string, string?, string?];
  if (part !== undefined && (division === undefined || tokens.length > 1)) return notCpa;
  const units: Array<{ section: string; division?: string }> = [{ section, ...(division && { division }) }];
  const covered = new Set<string>();
  const add = (unit: { section: string; division?: string }) => {
    const divisions = unit.division === undefined ? NACE_SECTIONS[unit.section] : [unit.division];
    for (const each of divisions ?? []) covered.add(each);
  };
  for (let index = 1; index < tokens.length; index += 2) {
    const separator = tokens[index];
    const next = NEXT.exec(tokens[index + 1] ?? '');
    const previous = units[units.length - 1] as { section: string; division?: string };
    if (next === null || (next[1] === undefined && next[2] === undefined)) return notCpa;
    const unit = { section: next[1] ?? previous.section, ...(next[2] && { division: next[2] }) };
    // A division range stays within digits (C10-12), a section range within letters (B-E).
    if ((previous.division === undefined) !== (unit.division === undefined)) return notCpa;
    if (separator === '-') {
      const range =
        unit.division === undefined
          ? SECTIONS.slice(SECTIONS.indexOf(previous.section), SECTIONS.indexOf(unit.section) + 1)
          : [...SECTION_OF.keys()].filter(
              (each) => each >= (previous.division as string) && each <= (unit.division as string),
            );
      if (range.length < 2) return notCpa;
      for (const each of range)
        add(unit.division === undefined ? { section: each } : { section: '', division: each });
    }
    units.push(unit);
  }
  for (const unit of units) {
    if (unit.division !== undefined && SECTION_OF.get(unit.division) !== unit.section)
      return {
        problem: `${JSON.stringify(code)}: ${unit.section}${unit.division} is not a NACE Rev. 2 division of section ${unit.section}`,
      };
    add(unit);
  }
  return { code, divisions: [...covered].sort(), ...(part !== undefined && { part }) };
}

/**
 * Which codes of one table to read: Eurostat publishes some products at two levels (France gives `CPA_C10-12`
 * beside `CPA_C10`, `CPA_C11`, `CPA_C12`), and reading both would count the same purchases twice. A code whose
 * divisions are all covered by finer codes in the table is an aggregate and is left out; a code that finer codes
 * cover only in part, or two codes that overlap without nesting, cannot be read without guessing and are refused.
 *
 * @returns the codes to read and the aggregates left out, or the overlapping pair.
 * @example
 * ```ts
 * const codes = ['CPA_C10-12', 'CPA_C10', 'CPA_C11', 'CPA_C12'].map((code) => parseCpaCode(code) as CpaCode);
 * finestCodes(codes); // kept: CPA_C10, CPA_C11, CPA_C12; aggregates: CPA_C10-12
 * ```
 */
export function finestCodes(
  codes: readonly CpaCode[],
): { kept: CpaCode[]; aggregates: CpaCode[] } | { overlap: [CpaCode, CpaCode]; uncovered: string[] } {
  const within = (inner: CpaCode, outer: CpaCode) =>
    inner !== outer &&
    inner.divisions.every((division) => outer.divisions.includes(division)) &&
    (inner.divisions.length < outer.divisions.length ||
      (inner.part !== undefined && outer.part === undefined));
  const kept: CpaCode[] = [];
  const aggregates: CpaCode[] = [];
  for (const code of codes) {
    const finer = codes.filter((other) => within(other, code));
    if (finer.length === 0) {
      kept.push(code);
      continue;
    }
    const covered = new Set(finer.flatMap((other) => other.divisions));
    const uncovered = code.divisions.filter((division) => !covered.has(division));
    if (uncovered.length > 0) return { overlap: [code, finer[0] as CpaCode], uncovered };
    aggregates.push(code);
  }
  // What is left must not overlap: only parts of one division (L68A, L68B) may share it.
  for (const [index, code] of kept.entries()) {
    for (const other of kept.slice(index + 1)) {
      const shared = code.divisions.filter((division) => other.divisions.includes(division));
      const parts = code.part !== undefined && other.part !== undefined && code.part !== other.part;
      if (shared.length > 0 && !parts) return { overlap: [code, other], uncovered: [] };
    }
  }
  return { kept, aggregates };
}
