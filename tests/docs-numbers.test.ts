// Numbers the hand-written docs repeat from generated output, held to their source: docs/findings.md's
// case count and per-build totals are docs/compat.md's (`npm run compat`), and CHANGELOG.md's counts of
// requirements and error codes are the spec catalog's (`npm run spec:ids`). Both describe the current
// suite: findings.md says its numbers are this commit's, and the changelog's section is unreleased.
// The count and range of the check benchmark's runs that the README (its summary, "How fast"),
// docs/check.md (the analysis) and docs/bench-check-runs.md state in words are those of that file's
// table of runs, which grows by hand with every run. The README's sizes of the two vocabularies and
// its count of the corpus's logs are schemas/vocabulary.json's and tests/corpus/verdicts.yaml's.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { readSpecCatalog } from '../conformance/spec-catalog.ts'

const root = fileURLToPath(new URL('..', import.meta.url))

/** A number a doc states, where it states it. */
interface Stated {
  file: string
  line: number
  what: string
  value: number
}

function lineAt(text: string, index: number): number {
  return text.slice(0, index).split('\n').length
}

/**
 * The numbers `pattern`'s groups capture in `file`, named by `whats` and read by `valueOf` (digits, or
 * words with writtenCount); `pattern` needs the d flag.
 */
function statedIn(file: string, text: string, pattern: RegExp, whats: readonly string[], valueOf: (text: string) => number = Number): Stated[] {
  const match = pattern.exec(text)
  if (match === null) throw new Error(`${file} no longer has the sentence ${pattern}: update tests/docs-numbers.test.ts`)
  return whats.map((what, group) => ({
    file,
    what,
    value: valueOf(match[group + 1]!),
    line: lineAt(text, match.indices![group + 1]![0]),
  }))
}

/** Every stated number that differs from its source's; `truth` is keyed by what the number counts. */
function mismatches(stated: readonly Stated[], truth: ReadonlyMap<string, number>, source: string): string[] {
  return stated
    .filter(number => truth.get(number.what) !== number.value)
    .map(({ file, line, value, what }) => `${file}:${line} says ${value} ${what}; ${source} says ${truth.get(what) ?? 'nothing'}`)
}

function read(file: string): string {
  return readFileSync(join(root, file), 'utf8')
}

/** An upstream build's row of docs/compat.md: implementation, version, language, then the totals. */
const COMPAT_ROW = /^\| (dsh-session@\S+) \| \S+ \| \S+ \| (\d+) \| (\d+) \| (\d+) \| (\d+) \|$/gm

/** docs/compat.md's suite size and, per upstream build, its totals. */
function compatTotals(compat: string): Map<string, number> {
  const totals = new Map<string, number>()
  totals.set('cases', Number(/^Suite .*, all (\d+) cases\.$/m.exec(compat)?.[1]))
  for (const [, build, passed, failed, , skipped] of compat.matchAll(COMPAT_ROW)) {
    totals.set(`passed by ${build}`, Number(passed)).set(`failed by ${build}`, Number(failed)).set(`skipped by ${build}`, Number(skipped))
  }
  return totals
}

/** docs/findings.md's suite size and its table of totals per build. */
function findingsTotals(findings: string): Stated[] {
  const file = 'docs/findings.md'
  const cases = statedIn(file, findings, /this commit's suite \((\d+) cases\)/d, ['cases'])
  const rows = [...findings.matchAll(/^\| `(dsh-session@[^`]+)` \| (\d+) \| (\d+) \| (\d+) \|$/dgm)]
  if (rows.length === 0) throw new Error(`${file} no longer has its table of totals per build: update tests/docs-numbers.test.ts`)
  return [...cases, ...rows.flatMap(row => ['passed', 'failed', 'skipped'].map((what, group) => ({
    file,
    what: `${what} by ${row[1]}`,
    value: Number(row[group + 2]),
    line: lineAt(findings, row.indices![group + 2]![0]),
  })))]
}

const CHANGELOG_COUNTS = new RegExp(
  String.raw`(\d+) requirements with stable\s+IDs, (\d+) error codes in \`spec/errors\.md\` `
    + String.raw`\((\d+) rejection codes and the (\d+) that repair writes into logs\)`,
  'd',
)

const UNITS = ['one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine']
const TEENS = ['ten', 'eleven', 'twelve', 'thirteen', 'fourteen', 'fifteen', 'sixteen', 'seventeen', 'eighteen', 'nineteen']
const TENS = ['twenty', 'thirty', 'forty', 'fifty', 'sixty', 'seventy', 'eighty', 'ninety']

/** A count written in digits ("100") or, from one to ninety-nine, in English words ("Forty-nine"); NaN for anything else. */
function writtenCount(words: string): number {
  if (/^\d+$/.test(words)) return Number(words)
  const [first = '', second, ...rest] = words.toLowerCase().split('-')
  if (rest.length > 0) return Number.NaN
  if (second === undefined) {
    if (UNITS.includes(first)) return UNITS.indexOf(first) + 1
    if (TEENS.includes(first)) return TEENS.indexOf(first) + 10
  }
  const tens = TENS.indexOf(first)
  const units = second === undefined ? 0 : UNITS.indexOf(second) + 1
  return tens === -1 || (units === 0 && second !== undefined) ? Number.NaN : 20 + 10 * tens + units
}

/**
 * The runs of docs/bench-check-runs.md's table: run number, wall ratios and CPU ratios. A cell holds one
 * ratio ("0.55×", or "0.4989×" where two decimals would round it across 0.5), a range ("0.41×–0.49×"),
 * or `?`; a range gives its two ends.
 */
function benchRuns(text: string): { run: number; wall: number[]; cpu: number[] }[] {
  const ratios = (cell: string): number[] => [...cell.matchAll(/(\d\.\d{2,4})×/g)].map(match => Number(match[1]))
  return [...text.matchAll(/^\| (\d+) \| [^|]+ \| ([^|]+) \| ([^|]+) \|/gm)]
    .map(([, run, wall, cpu]) => ({ run: Number(run), wall: ratios(wall!), cpu: ratios(cpu!) }))
}

/**
 * Of runs 1 to 7, four were at or above 0.5× (the file says so: their ratios were partly recorded as
 * ranges); every later run has one wall ratio of its own.
 */
const FIRST_SEVEN_AT_OR_ABOVE_HALF = 4

function benchTruth(text: string): Map<string, number> {
  const runs = benchRuns(text)
  const walls = runs.flatMap(run => run.wall)
  const cpus = runs.flatMap(run => run.cpu)
  const later = runs.filter(run => run.run > 7)
  const unclear = later.find(run => run.wall.length !== 1)
  if (unclear !== undefined) throw new Error(`docs/bench-check-runs.md: run ${unclear.run} has no single wall ratio to count`)
  const atOrAbove = FIRST_SEVEN_AT_OR_ABOVE_HALF + later.filter(run => run.wall[0]! >= 0.5).length
  return new Map([
    ['runs', runs.length],
    ['lowest wall ratio', Math.min(...walls)],
    ['highest wall ratio', Math.max(...walls)],
    ['lowest CPU ratio', Math.min(...cpus)],
    ['highest CPU ratio', Math.max(...cpus)],
    ['runs at or above 0.5×', atOrAbove],
    ['runs below 0.5×', runs.length - atOrAbove],
  ])
}

const RANGE_WHATS = ['lowest wall ratio', 'highest wall ratio', 'lowest CPU ratio', 'highest CPU ratio']

describe('numbers the docs repeat from their source', () => {
  it("docs/findings.md's case count and totals per build are docs/compat.md's", () => {
    const compat = compatTotals(read('docs/compat.md'))
    const stated = findingsTotals(read('docs/findings.md'))
    expect(mismatches(stated, compat, 'docs/compat.md (`npm run compat`)')).toEqual([])
    const builds = (names: Iterable<string>): string[] => [...new Set([...names].filter(what => what.startsWith('passed by ')))].sort()
    expect(builds(stated.map(number => number.what)), 'the builds of docs/findings.md\'s table are those of docs/compat.md')
      .toEqual(builds(compat.keys()))
  })

  it("CHANGELOG.md's counts of requirements and error codes are the spec catalog's", () => {
    const catalog = readSpecCatalog(join(root, 'spec'))
    const truth = new Map([
      ['requirements', catalog.requirements.length],
      ['error codes', catalog.codes.length],
      ['rejection codes', catalog.codes.filter(code => code.table === 'rejection').length],
      ['codes repair writes', catalog.codes.filter(code => code.table === 'log').length],
    ])
    const stated = statedIn('CHANGELOG.md', read('CHANGELOG.md'), CHANGELOG_COUNTS, [...truth.keys()])
    expect(mismatches(stated, truth, 'the spec catalog (`npm run spec:ids`)')).toEqual([])
  })

  it("the README's, docs/check.md's and docs/bench-check-runs.md's counts of bench runs are those of the file's table", () => {
    const runsDoc = read('docs/bench-check-runs.md')
    const truth = benchTruth(runsDoc)
    expect(benchRuns(runsDoc).map(run => run.run), 'the runs are numbered 1, 2, 3, … in the table')
      .toEqual(Array.from({ length: truth.get('runs')! }, (_, index) => index + 1))
    const summaries = ['README.md', 'docs/check.md'].map(file => [file, read(file)] as const)
    const stated = [
      ...summaries.flatMap(([file, text]) => [
        ...statedIn(file, text, /([A-Za-z0-9-]+)\s+runs\s+of\s+the\s+current\s+check/d, ['runs'], writtenCount),
        ...statedIn(file, text, /put\s+it\s+at\s+(\d\.\d\d)×\s+to\s+(\d\.\d\d)×\s+of\s+the\s+loop\s+in\s+wall\s+time\s+\((\d\.\d\d)×\s+to\s+(\d\.\d\d)×\s+in\s+CPU\s+time\)/d, RANGE_WHATS),
        ...statedIn(file, text, /at or above 0\.5× in\s+([A-Za-z0-9-]+)\s+of\s+them/d, ['runs at or above 0.5×'], writtenCount),
      ]),
      ...statedIn('docs/bench-check-runs.md', runsDoc, /^([A-Za-z0-9-]+) runs, from/dm, ['runs'], writtenCount),
      ...statedIn('docs/bench-check-runs.md', runsDoc, /runs, from (\d\.\d\d)× to (\d\.\d\d)× in wall time \((\d\.\d\d)× to (\d\.\d\d)× in CPU time where recorded\)/d, RANGE_WHATS),
      ...statedIn('docs/bench-check-runs.md', runsDoc, /([A-Za-z0-9-]+)\s+are\s+at\s+or\s+above\s+0\.5×\s+and\s+([a-z0-9-]+)\s+below/d, ['runs at or above 0.5×', 'runs below 0.5×'], writtenCount),
    ]
    expect(mismatches(stated, truth, "docs/bench-check-runs.md's table")).toEqual([])
  })

  it("the README's counts of vocabulary types and corpus logs are schemas/vocabulary.json's and tests/corpus/verdicts.yaml's", () => {
    const vocabularies = (JSON.parse(read('schemas/vocabulary.json')) as { versions: Record<string, { knownEventTypes: unknown[] }> }).versions
    const truth = new Map([
      ['types of v0-pinned', vocabularies['v0-pinned']?.knownEventTypes.length ?? Number.NaN],
      ['types of v0-rc8', vocabularies['v0-rc8']?.knownEventTypes.length ?? Number.NaN],
      ['corpus logs', (parse(read('tests/corpus/verdicts.yaml')) as unknown[]).length],
    ])
    const readme = read('README.md')
    const stated = [
      ...statedIn('README.md', readme, /`v0-pinned`, is upstream's vocabulary at the pinned commit \((\d+) types\)/d, ['types of v0-pinned']),
      ...statedIn('README.md', readme, /\((\d+) types in rc\.6 and rc\.7, (\d+) in rc\.8/d, ['types of v0-pinned', 'types of v0-rc8']),
      ...statedIn('README.md', readme, /The (\d+) logs of the rc8 corpus/d, ['corpus logs']),
    ]
    expect(mismatches(stated, truth, 'schemas/vocabulary.json or tests/corpus/verdicts.yaml')).toEqual([])
  })

  it('read counts written in digits or words', () => {
    expect(['One', 'nine', 'ten', 'Nineteen', 'twenty', 'Forty-nine', 'fifty', 'ninety-nine', '100', '123'].map(writtenCount))
      .toEqual([1, 9, 10, 19, 20, 49, 50, 99, 100, 123])
    expect(['', 'fifty-', 'fifty-ten', 'ten-one', 'hundred', 'forty-nine-one', '1-2', '12a'].map(writtenCount).every(Number.isNaN)).toBe(true)
  })

  it('name the file, the line and the source of a number that differs', () => {
    const text = 'Taken with\nthis commit\'s suite (943 cases).\n'
    const stated = statedIn('docs/findings.md', text, /this commit's suite \((\d+) cases\)/d, ['cases'])
    expect(mismatches(stated, new Map([['cases', 944]]), 'docs/compat.md (`npm run compat`)'))
      .toEqual(['docs/findings.md:2 says 943 cases; docs/compat.md (`npm run compat`) says 944'])
  })
})
