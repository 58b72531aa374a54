// What the two mutation report generators write, from made-up Stryker reports: docs/mutation.md
// (scripts/mutation-summary.ts) and docs/mutation-directives.md (scripts/mutation-directives.ts) carry
// the stamp of their inputs where `npm run check:mutation` reads it, order what they list the same
// whatever the locale and Stryker's order, and take a run's end from the run's record.
import { describe, expect, it } from 'vitest'
import { auditText, runEndedText, runRecordPath } from '../scripts/mutation-directives.ts'
import { stampedSha256 } from '../scripts/mutation-inputs.ts'
import type { Mutant, Report, Status } from '../scripts/mutation-report.ts'
import { summary } from '../scripts/mutation-summary.ts'

const STAMP = { sha256: 'c'.repeat(64), line: `- Inputs: sha256 ${'c'.repeat(64)} of reference/**/*.ts (2 files)` }
const RUN = { started: '2026-12-03T06:20:43.425Z', ended: '2026-12-03T06:59:32.747Z' }

function mutant(line: number, status: Status, statusReason?: string): Mutant {
  return {
    mutatorName: 'ConditionalExpression',
    replacement: 'true',
    status,
    ...(statusReason === undefined ? {} : { statusReason }),
    location: { start: { line, column: 1 }, end: { line, column: 5 } },
  }
}

function report(files: Report['files']): Report {
  return { files, config: { concurrency: 3 } }
}

/** The body rows of the table under `heading`. */
function tableRows(text: string, heading: string): string[] {
  const [section = ''] = text.slice(text.indexOf(heading) + heading.length).split('\n## ')
  return section.split('\n').filter(line => line.startsWith('| ')).slice(1)
}

describe('docs/mutation.md', () => {
  it('carries the stamp of its inputs', () => {
    const text = summary(report({ 'reference/a.ts': { source: '', mutants: [mutant(1, 'Killed')] } }), RUN, STAMP.line)
    expect(stampedSha256(text)).toBe(STAMP.sha256)
    expect(text).toContain(`- Duration: 38 min 49 s (\`stryker run\`, concurrency 3)\n${STAMP.line}\n- Mutation score:`)
  })

  it('lists modules and survivors in ordinal order, whatever the locale', () => {
    // Any locale's collation puts a before B; the code points put B (66) before a (97).
    const files = { 'reference/a.ts': { source: '', mutants: [mutant(1, 'Survived')] }, 'reference/B.ts': { source: '', mutants: [mutant(2, 'Survived')] } }
    const text = summary(report(files), RUN, STAMP.line)
    const firstCells = (heading: string): string[] => tableRows(text, heading).map(row => row.split(' | ')[0]!)
    expect(firstCells('## Score per module')).toEqual(['| reference/B.ts', '| reference/a.ts', '| **all**'])
    expect(firstCells('## Surviving mutants')).toEqual(['| reference/B.ts:2:1', '| reference/a.ts:1:1'])
  })

  it('orders ignored mutants by count, then by reason, not by where Stryker lists them', () => {
    const mutants = [
      mutant(1, 'Ignored', 'b: the second reason'),
      mutant(2, 'Ignored', 'c: the most frequent'),
      mutant(3, 'Ignored', 'c: the most frequent'),
      mutant(4, 'Ignored', 'a: the first reason'),
    ]
    const text = summary(report({ 'reference/a.ts': { source: '', mutants } }), RUN, STAMP.line)
    expect(tableRows(text, '## Ignored mutants, by reason')).toEqual([
      '| 2 | c: the most frequent |',
      '| 1 | a: the first reason |',
      '| 1 | b: the second reason |',
    ])
  })
})

describe('docs/mutation-directives.md', () => {
  it('carries the stamp of its inputs under the end of the run without directives', () => {
    const text = auditText([], '2026-12-03T10:24:36Z', STAMP.line)
    expect(stampedSha256(text)).toBe(STAMP.sha256)
    expect(text).toContain(`- Run without directives ended: 2026-12-03T10:24:36Z\n${STAMP.line}\n`)
  })

  it("takes the run's end from the record the run left beside its report, not from the file", () => {
    expect(runRecordPath('reports/mutation/without-directives.json')).toBe('reports/mutation/without-directives.run.json')
    const modified = new Date('2026-12-04T08:00:00.000Z')
    expect(runEndedText('reports/mutation/without-directives.json', JSON.stringify(RUN), modified)).toBe('2026-12-03T06:59:32Z')
  })

  it('says so when there is no record and the time is the report file\'s', () => {
    const modified = new Date('2026-12-04T08:00:00.000Z')
    expect(runEndedText('/tmp/copied.json', undefined, modified))
      .toBe('2026-12-04T08:00:00Z (the modification time of copied.json: there is no copied.run.json)')
  })
})
