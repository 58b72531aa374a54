// The reports at their limits: warnings and notes that belong to the run or to a baseline rather than
// to a case, the stale ids --strict-baseline fails on, and the size a CI job summary takes.
import { describe, expect, it } from 'vitest'
import { junitReport } from '../conformance/reports/junit.ts'
import { MARKDOWN_MOST_BYTES, markdownReport } from '../conformance/reports/markdown.ts'
import type { RunReport, RunReportAdapterRun } from '../generated/types/index.ts'
import { adapter, counts, entry, HAND_REPORT, reportRun } from './support/hand-reports.ts'
import { descendants, parseXml, unescapeXml } from './support/xml.ts'

describe('warnings and notes', () => {
  const listed = (notes: string[]): RunReportAdapterRun => reportRun('impl', adapter('impl', '1', 'x'), true, counts(1, 0, 0, 0), [
    entry('surf-a', '05-surface', ['SURF-1'], { baseline: 'new-pass', baselineReason: 'U1' }),
  ], { warnings: ['claims writer without append'], baseline: { source: 'b.yaml', newFailures: [], newPasses: ['surf-a'], stillFailing: [], notRun: [], unknownIds: ['surf-zz'], notes } })
  const report: RunReport = { ...HAND_REPORT, warnings: ['other.yaml is the baseline of nobody, which did not run'], runs: [listed(['the baseline lists 1 case id this suite does not have'])] }

  it('are the first suite\'s output in JUnit: the run\'s, then the adapter\'s warnings and its baseline\'s notes', () => {
    const suite = descendants(parseXml(junitReport(report)), 'testsuite')[0]!
    const output = suite.children.find((child) => child.name === 'system-out')
    expect(unescapeXml(output!.text)).toBe([
      'warning: other.yaml is the baseline of nobody, which did not run',
      'warning: claims writer without append',
      'note: the baseline lists 1 case id this suite does not have',
    ].join('\n'))
    // The NEW PASS keeps its own output, in its testcase.
    expect(descendants(suite, 'testcase')[0]!.children.map((child) => child.name)).toEqual(['system-out'])
  })

  it('head the Markdown report when they are the run\'s', () => {
    const lines = markdownReport(report).split('\n')
    expect(lines.slice(2, 5)).toEqual(['Suite `sha256:abc` (5 cases).', '', 'Warning: other.yaml is the baseline of nobody, which did not run'])
  })
})

describe('Markdown report size', () => {
  /** A run whose `count` cases all fail, each listed in its baseline under a reason of its own. */
  function knownRun(label: string, count: number): RunReportAdapterRun {
    const cases = Array.from({ length: count }, (_, index) =>
      entry(`case-${index}`, '05-surface', ['SURF-1'], { status: 'fail', reason: 'x', baseline: 'known-failure', baselineReason: `U${index}: ${'why '.repeat(150)}` }))
    const baseline = { source: `${label}.yaml`, newFailures: [], newPasses: [], stillFailing: cases.map((item) => item.id), notRun: [], unknownIds: [], notes: [] }
    return reportRun(label, adapter(label, '1', 'x'), true, counts(0, count, 0, 0), cases, { baseline })
  }

  it('lists at most 200 reasons of known failures, counting the rest', () => {
    const markdown = markdownReport({ ...HAND_REPORT, runs: [knownRun('many', 250)] })
    expect(markdown.split('\n').filter((line) => line.startsWith('| U'))).toHaveLength(200)
    expect(markdown).toContain('| … | 50 more cases under 50 more reasons, in a JSON report (`--report json=PATH`) |')
  })

  it('stays under the 1 MiB a GitHub job summary takes: known failures go first, then the end', () => {
    const withoutKnown = markdownReport({ ...HAND_REPORT, runs: Array.from({ length: 8 }, (_, index) => knownRun(`impl${index}`, 944)) })
    expect(Buffer.byteLength(withoutKnown)).toBeLessThanOrEqual(MARKDOWN_MOST_BYTES)
    expect(withoutKnown).toContain('The tables of known failures are left out to keep this report under 1 MiB')
    expect(withoutKnown).not.toContain('known failures listed in')
    expect(withoutKnown.match(/^### impl/gm)).toHaveLength(8)

    const unstarted = (index: number) => reportRun(`cmd${index}`, null, false, counts(0, 0, 0, 0), [], { startError: 'crash', stderrTail: 'line of stderr\n'.repeat(60) })
    // The first run's stderr grown so that the cut falls in a code block, right after its opener, or
    // between two runs' sections.
    for (const extra of [0, 20, 40, 60, 80, 200]) {
      const runs = Array.from({ length: 2000 }, (_, index) => unstarted(index))
      runs[0] = { ...runs[0]!, stderrTail: `${'line of stderr\n'.repeat(60)}${'x'.repeat(extra)}` }
      const cut = markdownReport({ ...HAND_REPORT, runs })
      expect(Buffer.byteLength(cut)).toBeLessThanOrEqual(MARKDOWN_MOST_BYTES)
      expect(cut.endsWith('_The report is cut here to stay under 1 MiB: a JSON report (`--report json=PATH`) holds every case._\n')).toBe(true)
      expect(cut.match(/<details>/g)!.length).toBe(cut.match(/<\/details>/g)!.length)
      // Every code block closed before the note, so that the note shows as text.
      expect(cut.split('\n').filter((line) => /^`{3,}/.test(line)).length % 2).toBe(0)
    }
    // A cut inside a started run's table of chapters: a blank line before the </details> that closes it.
    const started = (index: number) => reportRun(`impl${index}`, adapter(`impl${index}`, '1', 'x'), true, counts(200, 0, 0, 0),
      Array.from({ length: 200 }, (_, chapter) => entry(`case-${chapter}`, `${String(chapter).padStart(3, '0')}-chapter`, ['SURF-1'], {})))
    const inTable = markdownReport({ ...HAND_REPORT, runs: Array.from({ length: 400 }, (_, index) => started(index)) })
    expect(Buffer.byteLength(inTable)).toBeLessThanOrEqual(MARKDOWN_MOST_BYTES)
    expect(inTable.split('\n').slice(-6, -3)).toEqual([expect.stringMatching(/^\| \d{3}-chapter \|/), '', '</details>'])
  })
})

describe('a baseline listing ids the suite does not have, under --strict-baseline', () => {
  const stale: RunReportAdapterRun = reportRun('impl', adapter('impl', '1', 'x'), false, counts(1, 0, 0, 0), [entry('surf-a', '05-surface', ['SURF-1'], {})], {
    baseline: { source: 'b.yaml', newFailures: [], newPasses: [], stillFailing: [], notRun: [], unknownIds: ['surf-gone'], notes: ['the baseline lists 1 case id this suite does not have'] },
    stderrTail: 'Traceback: of a known failure',
  })

  it('is a failing test of its own in JUnit, as the run fails', () => {
    const root = parseXml(junitReport({ ...HAND_REPORT, strictBaseline: true, runs: [stale] }))
    expect(root.attributes['failures']).toBe('1')
    const failure = descendants(root, 'failure')[0]!
    expect(failure.attributes['type']).toBe('stale-baseline')
    expect(unescapeXml(failure.attributes['message']!)).toBe('under --strict-baseline, the baseline lists 1 case id this suite does not have (a typo, or a case that left the suite): surf-gone')
    // The adapter's stderr has nothing to say of a baseline.
    expect(unescapeXml(failure.text)).not.toContain('Traceback')
    expect(parseXml(junitReport({ ...HAND_REPORT, strictBaseline: false, runs: [{ ...stale, passed: true }] })).attributes['failures']).toBe('0')
  })

  it('is counted in the Markdown overview', () => {
    expect(markdownReport({ ...HAND_REPORT, strictBaseline: true, runs: [stale] })).toContain('| impl | 1 | 1 | 0 | 0 | 0 | 0 known, 0 NEW FAIL, 0 NEW PASS, 1 listed id no case has | ❌ failed |')
  })
})
