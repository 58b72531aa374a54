// What `dsh-conformance run` prints: per adapter its summary, line by line, and the closing table of
// counts and a verdict per adapter, printed for one adapter too, so that a run that --strict-baseline
// fails does not read like a pass; and how a long list of requirements wraps.
import { describe, expect, it } from 'vitest'
import { adapterSummary, overallSummary, wrapped } from '../conformance/console-summary.ts'
import { compareWithBaseline } from '../conformance/baseline.ts'
import type { AdapterRun } from '../conformance/results.ts'
import { NOT_PROVIDED } from '../conformance/run-case.ts'
import { BASELINE, baselinedRun, CASES, META, plainRun, SUITE, unstartedRun } from './support/fake-runs.ts'

/** A run whose only news against the baseline is a listed case that now passes (jsonl-a). */
function onlyNewPassRun(): AdapterRun {
  const outcomes = plainRun().outcomes.map((outcome) => (outcome.status === 'error' || outcome.id === 'surf-b' ? { ...outcome, status: 'pass' as const } : outcome))
  return { ...plainRun(), outcomes, baseline: compareWithBaseline(outcomes, BASELINE, { source: 'baselines/fake.yaml', adapter: META.name, suite: SUITE }) }
}

const verdictOf = (run: AdapterRun, strict: boolean): string => overallSummary([run], strict).split('\n')[1]!.split(/\s{2,}/).at(-1)!

describe('the closing table of a run', () => {
  it('gives each run its verdict', () => {
    expect(verdictOf(plainRun(), false)).toBe('FAILED')
    expect(verdictOf(baselinedRun(), false)).toBe('FAILED')
    expect(verdictOf(unstartedRun(), false)).toBe('not started')
    expect(verdictOf(onlyNewPassRun(), false)).toBe('passed (baseline)')
  })

  it('says a passing run whose claimed profile lacks operations passed a partial claim (spec/profiles.md); an unclaimed profile\'s skips do not', () => {
    const passing = onlyNewPassRun()
    const lacking = { id: 'lack-a', status: 'skip' as const, reason: `${NOT_PROVIDED}messages` }
    const unclaimed = { id: 'other-a', status: 'skip' as const, reason: 'profile "storage" not declared' }
    expect(verdictOf({ ...passing, outcomes: [...passing.outcomes, lacking] }, false)).toBe('passed (baseline; partial claim)')
    expect(verdictOf({ ...passing, outcomes: [...passing.outcomes, lacking], baseline: undefined }, false)).toBe('FAILED')
    expect(verdictOf({ ...passing, outcomes: [...passing.outcomes, unclaimed] }, false)).toBe('passed (baseline)')
    const clean = { ...passing, outcomes: passing.outcomes.filter((outcome) => outcome.status === 'pass'), baseline: undefined }
    expect(verdictOf({ ...clean, outcomes: [...clean.outcomes, lacking] }, false)).toBe('passed (partial claim)')
  })

  it('heads each adapter summary with its name and version, the version once when the name ends with it', () => {
    expect(adapterSummary(plainRun(), CASES).split('\n')[0]).toMatch(new RegExp(`^${META.name} ${META.version.replaceAll('.', '\\.')} \\(`))
    const named = { ...plainRun(), adapter: { ...META, name: `dsh-session@${META.version}` } }
    expect(adapterSummary(named, CASES).split('\n')[0]).toBe(`dsh-session@${META.version} (${META.language}; profiles: ${META.profiles.join(', ')})`)
  })

  it('ends each adapter summary with its counts, errors apart from failures', () => {
    expect(adapterSummary(plainRun(), CASES).split('\n').at(-1)).toBe('2 passed, 2 failed, 1 error, 1 skipped')
  })

  it('says when a run fails only because --strict-baseline makes a NEW PASS or a stale id fatal', () => {
    expect(verdictOf(onlyNewPassRun(), true)).toBe('FAILED (NEW PASS under --strict-baseline)')
    const run = onlyNewPassRun()
    const stale = { ...run, baseline: { ...run.baseline!, newPasses: [], unknownIds: ['gone-case'] } }
    expect(verdictOf(stale, false)).toBe('passed (baseline)')
    expect(verdictOf(stale, true)).toBe('FAILED (listed ids no case has under --strict-baseline)')
    expect(verdictOf({ ...stale, baseline: { ...stale.baseline, newPasses: ['jsonl-a'] } }, true)).toBe('FAILED (NEW PASS and listed ids no case has under --strict-baseline)')
    expect(verdictOf({ ...run, stopError: 'crash: on stop' }, true)).toBe('FAILED')
  })

  it('shows a listed reason of several lines whole, on one line, and a case\'s reason by its first line', () => {
    const run = onlyNewPassRun()
    const listed = { ...run, baseline: { ...run.baseline!, reasons: { ...run.baseline!.reasons, 'jsonl-a': 'scope-jsonl:\n  JSONL-6 is not\r\n  in the package' } } }
    expect(adapterSummary(listed, CASES)).toContain('  NEW PASS jsonl-a (listed as: scope-jsonl: JSONL-6 is not in the package)')
    expect(adapterSummary(plainRun(), CASES)).toContain('  FAIL surf-b (vectors/05-surface/x.yaml; SURF-1, SURF-5): step 0 (surface): value differs at $.nodes[0]: expected 3, actual 2')
  })
})

describe('the closing table, whole', () => {
  it('has a header, then per run its counts, its NEW FAIL and NEW PASS counts (- without a baseline) and its verdict', () => {
    expect(overallSummary([plainRun(), baselinedRun(), unstartedRun()], false).split('\n')).toEqual([
      'adapter                            passed   failed   errors  skipped NEW FAIL NEW PASS  verdict',
      // Two runs of one name and one version are told apart by their places.
      'fake-impl 1.2.3 #1                      2        2        1        1        -        -  FAILED',
      'fake-impl 1.2.3 #2                      2        2        1        1        2        1  FAILED',
      'broken-cmd --flag                       0        0        0        0        -        -  not started',
    ])
  })

  it('widens the name column for a name longer than it, keeping the counts aligned', () => {
    const long = { ...unstartedRun(), label: 'python3 -m my_port.conformance_adapter --verbose' }
    expect(overallSummary([plainRun(), long], false).split('\n')).toEqual([
      'adapter                                              passed   failed   errors  skipped NEW FAIL NEW PASS  verdict',
      'fake-impl                                                 2        2        1        1        -        -  FAILED',
      // The 48-character label, two blanks, then the counts' columns of nine.
      'python3 -m my_port.conformance_adapter --verbose          0        0        0        0        -        -  not started',
    ])
  })

  it('names a run by an escaped name, padded to its column', () => {
    const run = { ...plainRun(), adapter: { ...META, name: 'impl\u001b[8m' } }
    expect(overallSummary([run], false).split('\n')[1]).toBe('impl\\u001b[8m                           2        2        1        1        -        -  FAILED')
  })
})

describe('claims a run did not back', () => {
  const skipped = (id: string, reason: string) => ({ id, status: 'skip' as const, reason })

  it('warns about a claimed profile whose cases were skipped for lacking operations', () => {
    const outcomes = [
      skipped('surf-a', 'operation(s) not provided: messages'),
      skipped('surf-b', 'operation(s) not provided: messages, headerEquals'),
      { id: 'surf-c', status: 'pass' as const },
      skipped('comp-a', 'profile "compaction" not declared'),
    ]
    const summary = adapterSummary({ ...plainRun(), outcomes }, CASES)
    expect(summary).toContain('warning: profile reader is claimed, but 2 of its cases were skipped for operations the adapter does not provide: messages, headerEquals')
    expect(summary).not.toContain('tested nothing')
    expect(verdictOf({ ...plainRun(), outcomes }, false)).toBe('passed (partial claim)')
  })

  it('warns about a profile not claimed whose cases the adapter\'s operations could have run', () => {
    const provided = (id: string, operations: string) => skipped(id, `profile "compaction" not declared, though the adapter provides the operations of this case: ${operations}`)
    const outcomes = [{ id: 'surf-a', status: 'pass' as const }, provided('comp-a', 'surface, relations')]
    const summary = adapterSummary({ ...plainRun(), outcomes }, CASES)
    expect(summary).toContain('warning: profile compaction is not claimed, so 1 of its cases was skipped, though the adapter provides their operations (surface, relations): claim the profile to run them')
  })

  it('fails a run in which every case was skipped: it tested nothing', () => {
    const outcomes = CASES.map((vector) => skipped(vector.id, `profile "${vector.profile}" not declared`))
    const run = { ...plainRun(), outcomes }
    expect(adapterSummary(run, CASES)).toContain('warning: every selected case was skipped, so this run tested nothing: it fails')
    expect(verdictOf(run, false)).toBe('FAILED (no case ran)')
  })
})

describe('the summary of one adapter, line by line', () => {
  const heading = [
    'fake-impl 1.2.3 (javascript; profiles: reader, relations, jsonl)',
    '  chapter                     passed  failed  errors skipped',
    '  05-surface                       1       1       1       0',
    '  13-compaction                    0       1       0       1',
    '  19-jsonl                         1       0       0       0',
    '  total                            2       2       1       1',
    '  requirements named by failed or errored cases (4 of 5; (failed + errors)/cases naming each):',
    '    PROC-7 1/1, SURF-1 1/2, SURF-5 2/2, COMP-2 1/2',
  ]
  const surfB = 'step 0 (surface): value differs at $.nodes[0]: expected 3, actual 2'
  // A control character is escaped on a terminal, and so is a lone surrogate, which a terminal would
  // show as U+FFFD.
  const surfC = 'load threw: odd text: <tag> & "quotes" ]]> \\u0001 lone \\ud800 done'
  const cutHint = '  (a reason cut here is whole in the JSON report, with any stack or traceback: --report json=PATH)'
  const compB = 'step 0 (relations): value differs at $.violations[1] (logs diverge at seq 3): expected {"code":"X"}, actual undefined'

  it('without a baseline: the chapters, the failing requirements, then each fail and error in case order, with its file and rules', () => {
    expect(adapterSummary(plainRun(), CASES).split('\n')).toEqual([
      ...heading,
      `  FAIL surf-b (vectors/05-surface/x.yaml; SURF-1, SURF-5): ${surfB}`,
      `  ERROR surf-c (vectors/05-surface/x.yaml; SURF-5): ${surfC}`,
      `  FAIL comp-b (vectors/13-compaction/x.yaml; COMP-2, PROC-7): ${compB}`,
      '2 passed, 2 failed, 1 error, 1 skipped',
    ])
  })

  it('shows a vector file\'s path escaped: a folder name of --vectors cannot drive the terminal or forge a line', () => {
    const hostile = CASES.map((vector) => (vector.id === 'surf-b' ? { ...vector, file: 'mine/05\u001b]0;t\u0007\nFAIL x/x.yaml' } : vector))
    expect(adapterSummary(plainRun(), hostile).split('\n')).toContain(`  FAIL surf-b (mine/05\\u001b]0;t\\u0007\\u000aFAIL x/x.yaml; SURF-1, SURF-5): ${surfB}`)
  })

  it('with a baseline: its verdict, then the NEW FAILs with their reasons and the NEW PASSes with the listed ones', () => {
    expect(adapterSummary(baselinedRun(), CASES).split('\n')).toEqual([
      ...heading,
      '  baseline baselines/fake.yaml: 1 known failure still fails, 2 NEW FAIL, 1 NEW PASS',
      `  NEW FAIL surf-b (vectors/05-surface/x.yaml; SURF-1, SURF-5): ${surfB}`,
      `  NEW FAIL surf-c (vectors/05-surface/x.yaml; SURF-5): ${surfC}`,
      '  NEW PASS jsonl-a (listed as: scope-jsonl: JSONL-6 not in the package)',
      '2 passed, 2 failed, 1 error, 1 skipped (1 known failure in the baseline)',
    ])
  })

  it('counts the listed cases that did not run, gives the baseline\'s notes and a protocol broken after the last case', () => {
    const outcomes = plainRun().outcomes.filter((outcome) => outcome.id !== 'comp-b' && outcome.status !== 'error')
    const baseline = compareWithBaseline(outcomes, BASELINE, { source: 'b.yaml', adapter: 'another-impl', suite: SUITE })
    const lines = adapterSummary({ ...plainRun(), outcomes, baseline, stopError: 'garbage: a line after the last reply\nsecond line' }, CASES).split('\n')
    expect(lines.slice(-7)).toEqual([
      '  baseline b.yaml: 0 known failures still fail, 1 NEW FAIL, 1 NEW PASS, 1 listed case not run',
      '  note: the baseline is for adapter fake-impl, the run is of another-impl',
      `  NEW FAIL surf-b (vectors/05-surface/x.yaml; SURF-1, SURF-5): ${surfB}`,
      '  NEW PASS jsonl-a (listed as: scope-jsonl: JSONL-6 not in the package)',
      '  ERROR after the last case: the adapter broke the protocol: garbage: a line after the last reply',
      cutHint,
      '2 passed, 1 failed, 0 errors, 1 skipped',
    ])
  })

  it('says where a reason cut to its first line is whole, once, when one shown was cut', () => {
    const traced = (reason: string) => plainRun().outcomes.map((outcome) => (outcome.id === 'surf-c' ? { ...outcome, reason } : outcome))
    const lines = adapterSummary({ ...plainRun(), outcomes: traced('adapter error: boom\nTraceback (most recent call last):\n  File "a.py"') }, CASES).split('\n')
    expect(lines.slice(-4)).toEqual([`  ERROR surf-c (vectors/05-surface/x.yaml; SURF-5): adapter error: boom`, `  FAIL comp-b (vectors/13-compaction/x.yaml; COMP-2, PROC-7): ${compB}`, cutHint, '2 passed, 2 failed, 1 error, 1 skipped'])
    expect(adapterSummary({ ...plainRun(), outcomes: traced('x'.repeat(401)) }, CASES)).toContain(cutHint)
    expect(adapterSummary({ ...plainRun(), outcomes: traced('x'.repeat(400)) }, CASES)).not.toContain(cutHint)
    // A line end after the one line leaves nothing out.
    expect(adapterSummary({ ...plainRun(), outcomes: traced('adapter error: boom\n') }, CASES)).not.toContain(cutHint)
    // With a baseline, a NEW FAIL's reason is shown, so its cut counts.
    const newFail = { ...baselinedRun(), outcomes: baselinedRun().outcomes.map((outcome) => (outcome.id === 'surf-b' ? { ...outcome, reason: 'a\nb' } : outcome)) }
    expect(newFail.baseline!.newFailures).toContain('surf-b')
    expect(adapterSummary(newFail, CASES)).toContain(cutHint)
    // A known failure's reason is not shown, so its cut does not count.
    const known = { ...baselinedRun(), outcomes: baselinedRun().outcomes.map((outcome) => (outcome.id === 'comp-b' ? { ...outcome, reason: 'a\nb' } : outcome)) }
    expect(known.baseline!.stillFailing).toContain('comp-b')
    expect(adapterSummary(known, CASES)).not.toContain(cutHint)
  })

  it('for a run that passes: the chapters and the totals, nothing to look at', () => {
    const passing = { ...plainRun(), outcomes: CASES.map((vector) => ({ id: vector.id, status: 'pass' as const })) }
    expect(adapterSummary(passing, CASES).split('\n')).toEqual([
      heading[0],
      heading[1],
      '  05-surface                       3       0       0       0',
      '  13-compaction                    2       0       0       0',
      '  19-jsonl                         1       0       0       0',
      '  total                            6       0       0       0',
      '6 passed, 0 failed, 0 errors, 0 skipped',
    ])
  })

  it('lists the chapters in order, whatever order the cases ran in', () => {
    const reversed = { ...plainRun(), outcomes: [...plainRun().outcomes].reverse() }
    expect(adapterSummary(reversed, CASES).split('\n').slice(2, 5).map((line) => line.trim().split(/\s+/)[0])).toEqual(['05-surface', '13-compaction', '19-jsonl'])
  })

  it('gives the reason an adapter could not start escaped, each line after the first indented: a line of the adapter\'s cannot pass for one of the run\'s', () => {
    expect(adapterSummary({ ...unstartedRun(), startError: 'crash: exit code 3\n\u001b[8mevil: passed' }, CASES)).toBe('broken-cmd --flag: could not be started: crash: exit code 3\n\t\\u001b[8mevil: passed')
  })
})

describe('wrapped lines', () => {
  const ten = (index: number): string => `REQUIRE-${String(index).padStart(2, '0')}`
  const seven = Array.from({ length: 7 }, (_, index) => ten(index))

  it('fills each line up to 100 characters, ending it with the comma it breaks at', () => {
    const items = Array.from({ length: 9 }, (_, index) => ten(index))
    expect(wrapped(items, '    ')).toEqual([`    ${items.slice(0, 8).join(', ')},`, `    ${items[8]}`])
  })

  it('keeps a last line of exactly 100 characters whole, and breaks one of 101', () => {
    expect(wrapped([...seven, 'TWELVE-CHARS'], '    ')).toEqual([`    ${seven.join(', ')}, TWELVE-CHARS`])
    expect(wrapped([...seven, 'THIRTEEN-CHAR'], '    ')).toEqual([`    ${seven.join(', ')},`, '    THIRTEEN-CHAR'])
  })

  it('breaks a line of 100 characters that another follows, so that its comma fits', () => {
    const lines = wrapped([...seven, 'TWELVE-CHARS', 'X'], '    ')
    expect(lines).toEqual([`    ${seven.join(', ')},`, '    TWELVE-CHARS, X'])
    expect(Math.max(...lines.map((line) => line.length))).toBeLessThanOrEqual(100)
  })

  it('puts an item longer than a line on a line of its own, and nothing on none', () => {
    const long = 'X'.repeat(120)
    expect(wrapped([long, 'SURF-1'], '  ')).toEqual([`  ${long},`, '  SURF-1'])
    expect(wrapped([], '  ')).toEqual([])
  })
})
