// scripts/mutation-directives.ts: how a run with the Stryker directives and one without them are
// compared. The reports here are made up, shaped like Stryker's JSON report.
import { describe, expect, it } from 'vitest'
import { auditDirectives } from '../scripts/mutation-directives.ts'
import type { Mutant, Report, Status } from '../scripts/mutation-report.ts'

const REASON = 'the guard cannot fail here'

function mutant(line: number, column: number, replacement: string, status: Status, statusReason?: string): Mutant {
  return {
    mutatorName: 'ConditionalExpression',
    replacement,
    status,
    ...(statusReason === undefined ? {} : { statusReason }),
    location: { start: { line, column }, end: { line, column: column + 4 } },
  }
}

/** A file of ten lines with a Stryker directive before each of `targets` (1-based lines). */
function sourceWithDirectivesBefore(targets: readonly number[]): string {
  const lines = Array.from({ length: 10 }, (_, index) => `const line${index + 1} = ${index + 1}`)
  for (const target of targets) lines[target - 2] = `  // Stryker disable next-line ConditionalExpression: ${REASON}`
  return lines.join('\n')
}

function report(mutants: Mutant[], directiveTargets: readonly number[] = []): Report {
  return { files: { 'reference/a.ts': { source: sourceWithDirectivesBefore(directiveTargets), mutants } }, config: { concurrency: 1 } }
}

describe('auditing the Stryker directives', () => {
  it('sorts what each directive line silences into killed and not killed', () => {
    const withDirectives = report([
      mutant(3, 7, 'true', 'Ignored', REASON),
      mutant(3, 7, 'false', 'Ignored', REASON),
      mutant(5, 1, 'true', 'Killed'),
    ], [3])
    const withoutDirectives = report([
      mutant(3, 7, 'true', 'Killed'),
      mutant(3, 7, 'false', 'Survived'),
      mutant(5, 1, 'true', 'Killed'),
    ])
    const { lines, problems } = auditDirectives(withDirectives, withoutDirectives)
    expect(problems).toEqual([])
    expect(lines).toHaveLength(1)
    expect(lines[0]?.where).toBe('reference/a.ts:3')
    expect(lines[0]?.reason).toBe(REASON)
    expect(lines[0]?.killed.map(found => found.replacement)).toEqual(['true'])
    expect(lines[0]?.notKilled.map(found => found.replacement)).toEqual(['false'])
  })

  it('leaves out mutants ignored in both runs, and matches a replacement whatever its comments say', () => {
    const withDirectives = report([
      mutant(2, 1, '""', 'Ignored', 'free text'),
      mutant(4, 5, '// Stryker disable next-line ConditionalExpression: x\ndefault:', 'Ignored', REASON),
    ], [4])
    const withoutDirectives = report([
      mutant(2, 1, '""', 'Ignored', 'free text'),
      mutant(4, 5, '// (directive off for the audit) ConditionalExpression: x\ndefault:', 'Survived'),
    ])
    const { lines, problems } = auditDirectives(withDirectives, withoutDirectives)
    expect(problems).toEqual([])
    expect(lines.map(line => line.where)).toEqual(['reference/a.ts:4'])
  })

  it('fails on a survivor no directive silences, a directive that silences only killed mutants, and a mutant missing from the second run', () => {
    const withDirectives = report([
      mutant(3, 7, 'true', 'Ignored', REASON),
      mutant(6, 1, 'false', 'Killed'),
      mutant(8, 2, 'true', 'Ignored', REASON),
    ], [3])
    const withoutDirectives = report([
      mutant(3, 7, 'true', 'Killed'),
      mutant(6, 1, 'false', 'Survived'),
    ])
    const { problems } = auditDirectives(withDirectives, withoutDirectives)
    expect(problems).toEqual([
      'a silenced mutant is missing from the run without directives: reference/a.ts:8:2:8:6:ConditionalExpression:true',
      'a mutant no directive silences survives the run without directives: reference/a.ts:6:1:6:5:ConditionalExpression:false',
      'a directive silences only mutants the vectors kill: reference/a.ts:3 (ConditionalExpression at 7 `true` killed)',
    ])
  })

  it('says how each mutant of a directive that silences only killed mutants was detected: by which case, or by a timeout', () => {
    const withDirectives = report([
      mutant(3, 7, 'true', 'Ignored', REASON),
      mutant(3, 7, 'false', 'Ignored', REASON),
      mutant(3, 9, '"x"', 'Ignored', REASON),
    ], [3])
    const withoutDirectives = report([
      mutant(3, 7, 'true', 'Killed', 'legacy-id-kept: a later record leaves the recorded id: expected accept'),
      mutant(3, 7, 'false', 'Timeout'),
      mutant(3, 9, '"x"', 'Killed', 'The "x" encoding is not supported'),
    ])
    expect(auditDirectives(withDirectives, withoutDirectives).problems).toEqual([
      'a directive silences only mutants the vectors kill: reference/a.ts:3 (ConditionalExpression at 7 `true` killed by legacy-id-kept; ConditionalExpression at 7 `false` timed out; ConditionalExpression at 9 `"x"` killed: The "x" encoding is not supported)',
    ])
  })

  it('fails on a directive that silences no mutant, wherever it is indented', () => {
    const withDirectives = report([
      mutant(3, 7, 'true', 'Ignored', REASON),
      mutant(5, 1, 'true', 'Killed'),
      mutant(7, 1, '""', 'Ignored', 'free text'),
    ], [3, 5, 7, 9])
    const withoutDirectives = report([
      mutant(3, 7, 'true', 'Survived'),
      mutant(5, 1, 'true', 'Killed'),
      mutant(7, 1, '""', 'Ignored', 'free text'),
    ])
    const { lines, problems } = auditDirectives(withDirectives, withoutDirectives)
    expect(lines.map(line => line.where)).toEqual(['reference/a.ts:3'])
    expect(problems).toEqual([
      'a directive silences no mutant: reference/a.ts:5 (the line after the directive)',
      'a directive silences no mutant: reference/a.ts:7 (the line after the directive)',
      'a directive silences no mutant: reference/a.ts:9 (the line after the directive)',
    ])
  })
})
