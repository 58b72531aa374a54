// Numbers the hand-written docs repeat from generated output, held to their source: docs/findings.md's
// case count and per-build totals are docs/compat.md's (`npm run compat`), and CHANGELOG.md's counts of
// requirements and error codes are the spec catalog's (`npm run spec:ids`). Both describe the current
// suite: findings.md says its numbers are this commit's, and the changelog's section is unreleased.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'
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

/** The numbers `pattern`'s groups capture in `file`, named by `whats`; `pattern` needs the d flag. */
function statedIn(file: string, text: string, pattern: RegExp, whats: readonly string[]): Stated[] {
  const match = pattern.exec(text)
  if (match === null) throw new Error(`${file} no longer has the sentence ${pattern}: update tests/docs-numbers.test.ts`)
  return whats.map((what, group) => ({
    file,
    what,
    value: Number(match[group + 1]),
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

describe('numbers the docs copy from generated output', () => {
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

  it('name the file, the line and the source of a number that differs', () => {
    const text = 'Taken with\nthis commit\'s suite (943 cases).\n'
    const stated = statedIn('docs/findings.md', text, /this commit's suite \((\d+) cases\)/d, ['cases'])
    expect(mismatches(stated, new Map([['cases', 944]]), 'docs/compat.md (`npm run compat`)'))
      .toEqual(['docs/findings.md:2 says 943 cases; docs/compat.md (`npm run compat`) says 944'])
  })
})
