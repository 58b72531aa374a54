// Baselines: reading and writing them, NEW FAIL / NEW PASS / still failing, --strict-baseline and
// --write-baseline end to end with a fake adapter, and the committed baselines of the upstream builds
// (every reason names its finding class and the spec rules upstream departs from).
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { basename, join } from 'node:path'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { baselineFailsRun, baselineFrom, casesOfRun, compareWithBaseline, currentBaseline, formatBaseline, idsNotInRunText, parseBaseline, readBaseline, reasonAnchors, type Baseline } from '../conformance/baseline.ts'
import { parseOptions, type CommandOptions } from '../conformance/cli-options.ts'
import { baselinePathOf, pathPartOf, runCommand } from '../conformance/run-command.ts'
import { readSpecCatalog } from '../conformance/spec-catalog.ts'
import type { CaseOutcome } from '../conformance/run-case.ts'
import { loadVectorCases, projectRoot, vectorsDir, type VectorCase } from '../conformance/vector-cases.ts'
import { suiteContentHash } from '../conformance/suite-identity.ts'
import { BASELINE, META, OUTCOMES, SUITE } from './support/fake-runs.ts'

const context = { source: 'b.yaml', adapter: META.name, suite: SUITE }

describe('reading a baseline', () => {
  it('reads YAML with shared reasons as aliases, and JSON', () => {
    const yaml = 'adapter: impl\nsuiteHash: sha256:00\nfailures:\n  - {id: a, reason: &r "U1: PROC-7"}\n  - {id: b, reason: *r}\n'
    expect(parseBaseline(yaml, 'b.yaml')).toEqual({ adapter: 'impl', suiteHash: 'sha256:00', failures: [{ id: 'a', reason: 'U1: PROC-7' }, { id: 'b', reason: 'U1: PROC-7' }] })
    expect(parseBaseline('{"adapter":"impl","failures":[{"id":"a","reason":"why"}]}', 'b.json').failures).toEqual([{ id: 'a', reason: 'why' }])
  })

  it.each([
    ['', 'b.yaml: not a baseline: expected a mapping with adapter and failures'],
    ['[]', 'b.yaml:1: not a baseline: expected a mapping with adapter and failures'],
    // A member that is missing is named at the mapping that lacks it.
    ['failures: []', 'b.yaml:1: not a baseline: adapter must be a non-empty string'],
    ['adapter: ""\nfailures: []', 'b.yaml:1: not a baseline: adapter must be a non-empty string'],
    ['adapter: x\nsuiteVersion: 1\nfailures: []', 'b.yaml:2: not a baseline: suiteVersion must be a string'],
    ['adapter: x\nsuiteHash: [sha256]\nfailures: []', 'b.yaml:2: not a baseline: suiteHash must be a string'],
    ['adapter: x\nvectors: ""\nfailures: []', 'b.yaml:2: not a baseline: vectors must be a non-empty string: the folder the baseline was written for'],
    ['adapter: x\nfailures: [{id: "", reason: r}]', 'b.yaml:2: not a baseline: failures[0] needs a string id'],
    ['# mine\nadapter: x', 'b.yaml:2: not a baseline: failures must be a list of {id, reason}'],
    ['adapter: x\nfailures: {}', 'b.yaml:2: not a baseline: failures must be a list of {id, reason}'],
    ['adapter: x\nfailures:\n  - id: a\n    reason: r\n  - id: b\n', 'b.yaml:5: not a baseline: failures[1] (b) needs a reason'],
    ['adapter: x\nfailures: [{id: a, reason: "  "}]', 'b.yaml:2: not a baseline: failures[0] (a) needs a reason'],
    ['adapter: x\nfailures: [{reason: r}]', 'b.yaml:2: not a baseline: failures[0] needs a string id'],
    ['adapter: x\nfailures:\n- {id: a, reason: r}\n- {id: b, reason: s}\n- {id: a, reason: s}', 'b.yaml:5: not a baseline: a is listed twice'],
    ['adapter: x\n\nnote: later\nfailures: []', 'b.yaml:3: not a baseline: it has unknown members note (it may have adapter, suiteVersion, suiteHash, vectors, failures)'],
    ['adapter: x\nfailures:\n  - id: a\n    since: 2\n    reasn: r', 'b.yaml:4: not a baseline: failures[0] (a) has unknown members since, reasn (it may have id, reason)'],
    // JSON is YAML, so a JSON baseline's faults are named at their lines too.
    ['{"adapter": "x",\n "failures": [\n  {"id": "a"}]}', 'b.yaml:3: not a baseline: failures[0] (a) needs a reason'],
    // A tag would make a value no JSON baseline holds (here a Buffer), or be passed over.
    ['adapter: x\nfailures: [{id: a, reason: !!binary aGVsbG8=}]', 'b.yaml:2: the YAML tag !!binary is not taken'],
    ['adapter: x\nfailures: [{id: a, reason: !why r}]', 'b.yaml:2: not YAML: Unresolved tag: !why'],
  ])('refuses %j, naming the line', (text, message) => {
    expect(() => parseBaseline(text, 'b.yaml')).toThrow(message)
  })

  it('names the file it refuses, and keeps a reason without the blanks around it', () => {
    expect(() => parseBaseline('adapter: 7\nfailures: []', 'baselines/x.yaml')).toThrow('baselines/x.yaml:1: not a baseline: adapter must be a non-empty string')
    expect(() => parseBaseline('adapter: x\n  bad: [\n', 'baselines/x.yaml')).toThrow(/^baselines\/x\.yaml:1: not YAML: Nested mappings are not allowed[^\n]*$/)
    // Values nested deeper than the reader takes: said so, not taken for text that is no YAML; and as
    // often as asked in one process (a second file deep enough to run the composer's stack out once
    // ended the process), in flow and in block collections.
    const deep = `{"adapter": ${'['.repeat(100_000)}${']'.repeat(100_000)}}`
    const tooDeep = 'b.json: its values are nested too deeply to read (100001 levels, more than the 256 this reader takes)'
    for (let file = 0; file < 3; file += 1) expect(() => parseBaseline(deep, 'b.json')).toThrow(tooDeep)
    const blocks = `adapter: x\nfailures:\n${Array.from({ length: 1000 }, (_, level) => `${' '.repeat(level + 2)}- `).join('\n')}x\n`
    expect(() => parseBaseline(blocks, 'b.yaml')).toThrow('b.yaml: its values are nested too deeply to read (1001 levels, more than the 256 this reader takes)')
    const atTheLimit = `{"adapter": ${'['.repeat(255)}${']'.repeat(255)}}`
    expect(() => parseBaseline(atTheLimit, 'b.json')).toThrow(/^b\.json:1: not a baseline: adapter must be a non-empty string/)
    expect(parseBaseline('adapter: x\nfailures: [{id: a, reason: "  U1: PROC-7 "}]', 'b.yaml').failures).toEqual([{ id: 'a', reason: 'U1: PROC-7' }])
  })

  it('names the line of an alias whose anchor was deleted with its entry, and says how to mend it', () => {
    // What a written baseline becomes when the case that held the shared reason is deleted from it.
    const text = 'adapter: x\nfailures:\n  - id: b\n    reason: *PROC-1\n  - id: c\n    reason: *PROC-1\n'
    expect(() => parseBaseline(text, 'b.yaml')).toThrow('b.yaml:4: not YAML: the alias *PROC-1 refers to no anchor &PROC-1 before it '
      + '(the entry that held `&PROC-1 …` may have been deleted: give the first entry that refers to it the anchor and the text, `&PROC-1 …`)')
    // Mended so, it reads.
    const mended = text.replace('reason: *PROC-1', 'reason: &PROC-1 "U1: PROC-1"')
    expect(parseBaseline(mended, 'b.yaml').failures).toEqual([{ id: 'b', reason: 'U1: PROC-1' }, { id: 'c', reason: 'U1: PROC-1' }])
  })
})

describe('comparing a run with its baseline', () => {
  it('sorts outcomes into NEW FAIL, NEW PASS, still failing and not run', () => {
    const baseline: Baseline = { ...BASELINE, failures: [...BASELINE.failures, { id: 'comp-a', reason: 'skipped here' }, { id: 'gone', reason: 'not selected' }] }
    const verdict = compareWithBaseline(OUTCOMES, baseline, context)
    expect(verdict).toMatchObject({ newFailures: ['surf-b', 'surf-c'], newPasses: ['jsonl-a'], stillFailing: ['comp-b'], notRun: ['comp-a', 'gone'], notes: [] })
    expect(verdict.reasons['comp-b']).toBe('U1: PROC-7 wants every violation')
  })

  it('notes another adapter name or suite hash without failing on it', () => {
    const verdict = compareWithBaseline(OUTCOMES, { ...BASELINE, adapter: 'other', suiteHash: 'sha256:old' }, context)
    expect(verdict.notes).toEqual([
      'the baseline is for adapter other, the run is of fake-impl',
      `the baseline was written against suite sha256:old, this suite is ${SUITE.contentHash}: its case ids still apply, and a case added or changed since fails as a NEW FAIL until it is mended or listed; once each is understood, --baseline FILE --write-baseline FILE restamps it`,
    ])
    // A baseline that names no suite says nothing about one (suiteHash is optional).
    const { suiteHash: _suiteHash, ...unversioned } = BASELINE
    expect(compareWithBaseline(OUTCOMES, unversioned, context).notes).toEqual([])
    // Another version of the suite, whose rules for running vectors may differ, is noted too.
    expect(compareWithBaseline(OUTCOMES, { ...BASELINE, suiteVersion: '9.9.9' }, context).notes).toEqual([
      `the baseline was written by version 9.9.9 of the suite, this is ${SUITE.version}: the rules for running vectors may have changed since (CHANGELOG.md); once its entries are understood, --baseline FILE --write-baseline FILE restamps it`,
    ])
  })

  it('names listed ids the suite does not have apart from those a filter left out, and fails a strict run on them', () => {
    // Every fail listed, no listed case passing: only the unknown id is stale.
    const baseline: Baseline = { ...BASELINE, failures: [BASELINE.failures[0]!, { id: 'surf-b', reason: 'r' }, { id: 'comp-a', reason: 'skipped here' }, { id: 'surf-b-typo', reason: 'r' }] }
    const withoutError = OUTCOMES.filter((outcome) => outcome.status !== 'error')
    const verdict = compareWithBaseline(withoutError, baseline, { ...context, caseIds: new Set([...OUTCOMES.map((outcome) => outcome.id), 'filtered-out']) })
    expect(verdict).toMatchObject({ newFailures: [], newPasses: [], notRun: ['comp-a'], unknownIds: ['surf-b-typo'] })
    expect(verdict.notes).toEqual(['the baseline lists 1 case id this suite does not have (a typo, or a case that left the suite): surf-b-typo (did you mean surf-b?)'])
    // A near miss of an id the suite has is named with it.
    expect(idsNotInRunText(['surf-order-append-only-surfac', 'gone'], ['surf-order-append-only-surface', 'surf-b']))
      .toBe('the baseline lists 2 case ids this suite does not have (a typo, or a case that left the suite): surf-order-append-only-surfac (did you mean surf-order-append-only-surface?), gone')
    // A case renamed by a suffix is meant before a sibling a few edits away.
    expect(idsNotInRunText(['fork-width-65-rejected-writer'], ['fork-width-64-accepted-writer', 'fork-width-65-rejected-writer-renamed']))
      .toBe('the baseline lists 1 case id this suite does not have (a typo, or a case that left the suite): fork-width-65-rejected-writer (did you mean fork-width-65-rejected-writer-renamed?)')
    expect(baselineFailsRun(verdict, false)).toBe(false)
    expect(baselineFailsRun(verdict, true)).toBe(true)
  })

  it('takes no listed id of a suite\'s baseline for unknown in a run of a folder of vectors, whose ids are another set', () => {
    // The fuzz output replayed with the suite's baseline: none of its ids is a case of the folder.
    const baseline: Baseline = { ...BASELINE, failures: [...BASELINE.failures, { id: 'surf-b-typo', reason: 'r' }] }
    const verdict = compareWithBaseline([], baseline, { ...context, suite: { ...context.suite, vectors: 'reports/fuzz' }, caseIds: new Set(['fuzz-0123456789ab']) })
    expect(verdict).toMatchObject({ notRun: baseline.failures.map((entry) => entry.id), unknownIds: [], notes: [] })
  })

  it('says how to mend a folder\'s baseline that names no folder, when some of its ids are the folder\'s', () => {
    const legacy: Baseline = { ...BASELINE, failures: [BASELINE.failures[0]!, { id: 'mine-gone', reason: 'r' }] }
    const verdict = compareWithBaseline(OUTCOMES, legacy, { ...context, suite: { ...context.suite, vectors: 'my-vectors' }, caseIds: new Set(OUTCOMES.map((outcome) => outcome.id)) })
    expect(verdict.unknownIds).toEqual([])
    expect(verdict.notes).toEqual(['the baseline names no folder (vectors:), so its ids are not held to the cases under my-vectors, though 1 of its 2 ids is among them: if it is this folder\'s baseline, add `vectors: my-vectors` to it'])
  })

  it('holds a folder\'s baseline to the folder\'s cases: an id it lacks is stale, another hash noted, and strict fails', () => {
    const withoutError = OUTCOMES.filter((outcome) => outcome.status !== 'error')
    const baseline: Baseline = { ...BASELINE, suiteHash: 'sha256:0f', vectors: 'my-vectors/', failures: [BASELINE.failures[0]!, { id: 'surf-b', reason: 'r' }, { id: 'mine-deleted', reason: 'r' }] }
    const folderRun = { ...context, suite: { ...context.suite, vectors: 'my-vectors' }, caseIds: new Set(OUTCOMES.map((outcome) => outcome.id)) }
    const verdict = compareWithBaseline(withoutError, baseline, folderRun)
    expect(verdict).toMatchObject({ newFailures: [], newPasses: [], notRun: [], unknownIds: ['mine-deleted'] })
    expect(verdict.notes).toEqual([
      `the baseline was written against cases sha256:0f, the vectors under my-vectors are ${SUITE.contentHash}: its case ids still apply, and a case added or changed since fails as a NEW FAIL until it is mended or listed; once each is understood, --baseline FILE --write-baseline FILE restamps it`,
      'the baseline lists 1 case id the vectors under my-vectors do not have (a typo, or a case that left the folder): mine-deleted',
    ])
    expect(baselineFailsRun(verdict, false)).toBe(false)
    expect(baselineFailsRun(verdict, true)).toBe(true)
    // Given to a run of the suite's own cases, or of another folder, it is said to be written for other
    // cases, and its ids are not held to the run's.
    const suiteRun = compareWithBaseline(withoutError, baseline, { ...context, caseIds: folderRun.caseIds })
    expect(suiteRun.notes).toEqual(['the baseline was written for the vectors under my-vectors/, the run is of the suite\'s own: its ids are not held to the run\'s cases'])
    expect(suiteRun.unknownIds).toEqual([])
    const otherFolder = compareWithBaseline(withoutError, baseline, { ...folderRun, suite: { ...context.suite, vectors: 'their-vectors' } })
    expect(otherFolder.notes).toEqual(['the baseline was written for the vectors under my-vectors/, the run is of those under their-vectors: its ids are not held to the run\'s cases'])
    expect(otherFolder.unknownIds).toEqual([])
  })

  it('fails the run on a NEW FAIL; on a NEW PASS only under strict', () => {
    const failing = compareWithBaseline(OUTCOMES, BASELINE, context)
    expect(baselineFailsRun(failing, false)).toBe(true)
    const withoutError = OUTCOMES.filter((outcome) => outcome.status !== 'error')
    const listedAll: Baseline = { ...BASELINE, failures: [...BASELINE.failures, { id: 'surf-b', reason: 'r' }] }
    const passing = compareWithBaseline(withoutError, listedAll, context)
    expect(passing.newFailures).toEqual([])
    expect(baselineFailsRun(passing, false)).toBe(false)
    expect(baselineFailsRun(passing, true)).toBe(true)
  })

  it('passes a run with nothing new under strict too', () => {
    const withoutError = OUTCOMES.filter((outcome) => outcome.status !== 'error')
    const exact: Baseline = { ...BASELINE, failures: [BASELINE.failures[0]!, { id: 'surf-b', reason: 'r' }] }
    const verdict = compareWithBaseline(withoutError, exact, { ...context, caseIds: new Set(OUTCOMES.map((outcome) => outcome.id)) })
    expect(verdict).toMatchObject({ newFailures: [], newPasses: [], unknownIds: [], stillFailing: ['comp-b', 'surf-b'] })
    expect(baselineFailsRun(verdict, false)).toBe(false)
    expect(baselineFailsRun(verdict, true)).toBe(false)
  })

  it('excuses no error: a listed case that crashed, timed out or replied out of protocol is a NEW FAIL', () => {
    // surf-c errs (OUTCOMES); the baseline lists it, as if for the wrong answer it once gave.
    const verdict = compareWithBaseline(OUTCOMES, { ...BASELINE, failures: [...BASELINE.failures, { id: 'surf-b', reason: 'r' }, { id: 'surf-c', reason: 'r' }] }, context)
    expect(verdict).toMatchObject({ newFailures: ['surf-c'], stillFailing: ['comp-b', 'surf-b'], notRun: [] })
    expect(baselineFailsRun(verdict, false)).toBe(true)
  })
})

describe('writing a baseline', () => {
  const suiteCases = [
    ...['surf-a', 'surf-b', 'surf-c'].map((id) => ({ id, requirements: ['SURF-6'] })),
    ...['comp-a', 'comp-b'].map((id) => ({ id, requirements: ['COMP-3', 'COMP-4'] })),
    { id: 'jsonl-a', requirements: ['JSONL-6'] },
    { id: 'not-run-here', requirements: ['SURF-6'] },
  ]
  const previous: Baseline = {
    adapter: 'fake-impl',
    failures: [
      { id: 'surf-b', reason: 'U4: PROC-3 shapes on append' },
      { id: 'surf-c', reason: 'U4: PROC-3 shapes on append' },
      { id: 'not-run-here', reason: 'U4: PROC-3 shapes on append' },
      // comp-a is skipped in this run (OUTCOMES): a run that cannot reach a case keeps its entry.
      { id: 'comp-a', reason: 'U2: fails where it runs' },
      { id: 'withdrawn-case', reason: 'gone from the suite' },
      { id: 'jsonl-a', reason: 'fixed since' },
    ],
  }

  it('lists current fails, keeps known reasons, carries over cases not run, skipped or erring, drops withdrawn ids and passes, groups by reason', () => {
    const written = currentBaseline({ adapter: 'fake-impl', suite: SUITE, outcomes: OUTCOMES, suiteCases, previous })
    expect(written.suiteHash).toBe(SUITE.contentHash)
    // surf-c errs in this run: an error says nothing of the answer, so its entry and reason stay for a
    // clean run to decide (the run still fails on the error); an error not listed before is not listed.
    expect(written.failures).toEqual([
      { id: 'surf-b', reason: 'U4: PROC-3 shapes on append' },
      { id: 'surf-c', reason: 'U4: PROC-3 shapes on append' },
      { id: 'not-run-here', reason: 'U4: PROC-3 shapes on append' },
      { id: 'comp-a', reason: 'U2: fails where it runs' },
      { id: 'comp-b', reason: 'COMP-3, COMP-4: step 0 (relations): value differs at $.violations[1] (logs diverge at seq 3): expected {"code":"X"}, actual undefined' },
    ])
  })

  it('writes a folder\'s baseline naming the folder and its hash, and drops the ids the folder lacks', () => {
    const folder = { ...SUITE, vectors: 'my-vectors', contentHash: 'sha256:f0' }
    const fresh = currentBaseline({ adapter: 'fake-impl', suite: folder, outcomes: OUTCOMES, suiteCases })
    expect(fresh).toMatchObject({ suiteVersion: SUITE.version, suiteHash: 'sha256:f0', vectors: 'my-vectors' })
    // The folder's name, not the path as given: `.` would name whatever folder a later run is in.
    const dotted = mkdtempSync(join(tmpdir(), 'their-vectors-'))
    for (const spelled of [`${dotted}/.`, `${dotted}/sub/..`, `${dotted}/`]) {
      if (spelled.endsWith('sub/..')) mkdirSync(join(dotted, 'sub'), { recursive: true })
      const named = currentBaseline({ adapter: 'fake-impl', suite: { ...folder, vectors: spelled }, outcomes: OUTCOMES, suiteCases })
      expect(named.vectors, spelled).toBe(basename(dotted))
    }
    rmSync(dotted, { recursive: true, force: true })
    const over = currentBaseline({ adapter: 'fake-impl', suite: folder, outcomes: OUTCOMES, suiteCases, previous: { ...previous, suiteHash: 'sha256:0f', vectors: 'my-vectors' } })
    expect(over).toMatchObject({ suiteHash: 'sha256:f0', vectors: 'my-vectors' })
    expect(over.failures.map((entry) => entry.id)).toEqual(['surf-b', 'surf-c', 'not-run-here', 'comp-a', 'comp-b'])
    // Over a suite's baseline it keeps every entry it did not reach, and the suite that file names.
    const overSuite = currentBaseline({ adapter: 'fake-impl', suite: folder, outcomes: OUTCOMES, suiteCases, previous: { ...previous, suiteHash: 'sha256:0f' } })
    expect(overSuite).not.toHaveProperty('vectors')
    expect(overSuite.suiteHash).toBe('sha256:0f')
    expect(overSuite.failures.map((entry) => entry.id)).toContain('withdrawn-case')
    // And a run of the suite over a folder's baseline keeps the folder's entries and names the folder still.
    const folderBaseline = { ...previous, suiteHash: 'sha256:0f', vectors: 'my-vectors' }
    const suiteOverFolder = currentBaseline({ adapter: 'fake-impl', suite: SUITE, outcomes: OUTCOMES, suiteCases, previous: folderBaseline })
    expect(suiteOverFolder).toMatchObject({ suiteHash: 'sha256:0f', vectors: 'my-vectors' })
    expect(suiteOverFolder.failures.map((entry) => entry.id)).toContain('withdrawn-case')
  })

  it('writes a shared reason once (anchored by its tag) and reads back what it wrote, as YAML and JSON', () => {
    const written = currentBaseline({ adapter: 'fake-impl', suite: SUITE, outcomes: OUTCOMES, suiteCases, previous })
    const yaml = formatBaseline(written, 'b.yaml')
    expect(yaml).toContain('reason: &U4 "U4: PROC-3 shapes on append"')
    expect(yaml).toContain('reason: *U4')
    expect(yaml.startsWith('# Known failures of fake-impl')).toBe(true)
    expect(parseBaseline(yaml, 'b.yaml')).toEqual(written)
    expect(parseBaseline(formatBaseline(written, 'b.json'), 'b.json')).toEqual(written)
    expect(JSON.parse(formatBaseline(written, 'b.json'))).toEqual(written)
  })

  it('names an anchor by a running number when the reason has no leading tag, and tells two reasons of one tag apart', () => {
    const listed = (id: string, reason: string) => ({ id, reason })
    const baseline: Baseline = {
      adapter: 'fake-impl',
      failures: [listed('a', '(no tag) U7: later'), listed('b', '(no tag) U7: later'), listed('c', 'U4: one'), listed('d', 'U4: one'), listed('e', 'U4: two'), listed('f', 'U4: two')],
    }
    const yaml = formatBaseline(baseline, 'b.yaml')
    for (const [id, anchor] of [['b', 'reason-1'], ['d', 'U4'], ['f', 'U4-2']]) expect(yaml).toContain(`- id: ${id}\n    reason: *${anchor}\n`)
    expect(parseBaseline(yaml, 'b.yaml')).toEqual(baseline)
  })

  it('keeps the anchor names of the file it rewrites, and names no new anchor like one of them', () => {
    const listed = (id: string, reason: string) => ({ id, reason })
    const baseline: Baseline = { adapter: 'fake-impl', failures: [listed('a', 'U4: one'), listed('b', 'U4: one'), listed('c', 'U5: two'), listed('d', 'U5: two')] }
    // The author named U4's reason "rev", and U5's nothing yet; an older reason took the name "U5".
    const old = 'adapter: fake-impl\nfailures:\n  - {id: a, reason: &rev "U4: one"}\n  - {id: b, reason: *rev}\n  - {id: z, reason: &U5 "U5: gone"}\n'
    const anchors = reasonAnchors(old)
    expect([...anchors]).toEqual([['U4: one', 'rev'], ['U5: gone', 'U5']])
    const yaml = formatBaseline(baseline, 'b.yaml', anchors)
    expect(yaml).toContain('reason: &rev "U4: one"')
    expect(yaml).toContain('- id: b\n    reason: *rev\n')
    expect(yaml).toContain('- id: d\n    reason: *U5-2\n')
    expect(parseBaseline(yaml, 'b.yaml')).toEqual(baseline)
  })

  it('begins a reason nobody has written with the case\'s requirements, so that one text is shared by cases of the same rules only', () => {
    const failing = (id: string): CaseOutcome => ({ id, status: 'fail', step: 0, operation: 'load', reason: 'step 0 (load): expected TURN_NOT_OPEN, got acceptance' })
    const cases = [
      { id: 'turn-a', requirements: ['TURN-6'] },
      { id: 'hdr-a', requirements: ['HDR-9'] },
      { id: 'turn-b', requirements: ['TURN-6'] },
      { id: 'scope-a', requirements: ['TURN-8', 'TURN-9'] },
      { id: 'scope-b', requirements: ['TURN-8', 'TURN-9'] },
    ]
    const written = currentBaseline({ adapter: 'fake-impl', suite: SUITE, outcomes: cases.map(({ id }) => failing(id)), suiteCases: cases })
    expect(written.failures).toEqual([
      { id: 'turn-a', reason: 'TURN-6: step 0 (load): expected TURN_NOT_OPEN, got acceptance' },
      { id: 'turn-b', reason: 'TURN-6: step 0 (load): expected TURN_NOT_OPEN, got acceptance' },
      { id: 'hdr-a', reason: 'HDR-9: step 0 (load): expected TURN_NOT_OPEN, got acceptance' },
      { id: 'scope-a', reason: 'TURN-8, TURN-9: step 0 (load): expected TURN_NOT_OPEN, got acceptance' },
      { id: 'scope-b', reason: 'TURN-8, TURN-9: step 0 (load): expected TURN_NOT_OPEN, got acceptance' },
    ])
    const yaml = formatBaseline(written, 'b.yaml')
    expect(yaml).toContain('- id: turn-b\n    reason: *TURN-6\n')
    expect(yaml).toContain('- id: scope-b\n    reason: *TURN-8\n')
    expect(yaml).not.toContain('*HDR-9')
  })
})

describe('dsh-conformance run with a baseline (in process, fake adapter)', () => {
  const MISORDER = 'node tests/fakes/fake-adapter.mjs misorder'
  const SURFACE_ORDER = 'surf-order-*'
  let cases: VectorCase[] = []
  let printed: string[] = []
  const folder = mkdtempSync(join(tmpdir(), 'dsh-baseline-'))

  // Chapter 05 alone stands in for the suite: it holds every case the filter selects.
  beforeAll(() => {
    cases = loadVectorCases(join(vectorsDir, '05-surface'))
  })
  afterEach(() => {
    vi.restoreAllMocks()
  })
  afterAll(() => rmSync(folder, { recursive: true, force: true }))

  async function run(args: string[]): Promise<number> {
    printed = []
    const capture = (...parts: unknown[]): void => void printed.push(parts.join(' '))
    vi.spyOn(console, 'log').mockImplementation(capture)
    vi.spyOn(console, 'error').mockImplementation(capture)
    // The fake's path is relative: vitest runs in the project root.
    const options = parseOptions('run', ['--adapter-cmd', MISORDER, '--case', SURFACE_ORDER, ...args]) as CommandOptions
    return runCommand(options, cases)
  }

  it('--write-baseline writes the failures; with it as baseline the run passes; a missing entry is a NEW FAIL', async () => {
    const path = join(folder, 'misorder.yaml')
    expect(await run(['--write-baseline', path])).toBe(1)
    const written = readBaseline(path)
    expect(written.adapter).toBe('fake-misorder')
    expect(written.failures.length).toBeGreaterThan(1)
    expect(await run(['--baseline', path])).toBe(0)
    expect(printed.join('\n')).toMatch(/baseline .*misorder\.yaml: \d+ known failures still fail, 0 NEW FAIL, 0 NEW PASS/)

    const [dropped, ...rest] = written.failures
    const partial = join(folder, 'partial.yaml')
    writeFileSync(partial, formatBaseline({ ...written, failures: rest }, partial))
    expect(await run(['--baseline', partial])).toBe(1)
    expect(printed.join('\n')).toMatch(new RegExp(`NEW FAIL ${dropped!.id} \\(vectors/[^;]+\\.yaml; [A-Z]+-\\d+[^)]*\\): `))

    // Rewritten over itself, a file keeps the anchor names its author gave its shared reasons.
    const anchored = join(folder, 'anchored.yaml')
    const shared = { ...written, failures: written.failures.map((entry) => ({ ...entry, reason: 'SURF-3: our own words' })) }
    writeFileSync(anchored, formatBaseline(shared, anchored, new Map([['SURF-3: our own words', 'ours']])))
    expect(readFileSync(anchored, 'utf8')).toContain('&ours')
    expect(await run(['--baseline', anchored, '--write-baseline', anchored])).toBe(0)
    expect(readFileSync(anchored, 'utf8')).toContain('reason: &ours "SURF-3: our own words"')
  })

  it('a listed case that passes is a NEW PASS: reported, and failing the run only under --strict-baseline', async () => {
    const path = join(folder, 'misorder.yaml')
    const written = readBaseline(path)
    const extra = join(folder, 'extra.json')
    writeFileSync(extra, formatBaseline({ ...written, failures: [...written.failures, { id: 'surf-order-append-only-surface', reason: 'listed by mistake' }] }, extra))
    expect(await run(['--baseline', extra])).toBe(0)
    expect(printed.join('\n')).toContain('NEW PASS surf-order-append-only-surface (listed as: listed by mistake)')
    expect(await run(['--baseline', extra, '--strict-baseline'])).toBe(1)
  })
})

/** A finding's row of docs/findings.md (`| U7 | …`), or a scope's bullet (`- **scope-jsonl: …**` to the next bullet). */
function findingEntry(findings: string, tag: string): string | undefined {
  if (tag.startsWith('U')) return new RegExp(`^\\| ${tag} \\|.*$`, 'm').exec(findings)?.[0]
  const start = findings.indexOf(`- **${tag}: `)
  if (start === -1) return undefined
  const end = findings.slice(start + 1).search(/\n(- \*\*|\n)/)
  return findings.slice(start, end === -1 ? undefined : start + 1 + end)
}

/**
 * Whether an entry names a case: its id as a word, or a glob word (`row-expand-*`) matching it. A star
 * with no letter or digit beside it is Markdown emphasis (`*(coordinator-only)*`), no glob.
 */
function listsCase(entry: string, id: string): boolean {
  return (entry.match(/[a-z0-9*][a-z0-9*-]*/g) ?? []).some((word) =>
    word === id || (word.includes('*') && /[a-z0-9]/.test(word) && new RegExp(`^${word.replaceAll('*', '[a-z0-9-]*')}$`).test(id)))
}

describe('--write-baseline with {adapter}', () => {
  it('puts an adapter\'s name into the path as one part: no folders made, none climbed out of', () => {
    expect(pathPartOf('dsh-session@0.1.0-rc.8')).toBe('dsh-session@0.1.0-rc.8')
    expect(pathPartOf('@myorg/session')).toBe('@myorg_session')
    expect(pathPartOf('../../escaped')).toBe('.._.._escaped')
    expect(pathPartOf('..')).toBe('__')
    expect(pathPartOf('a\\b')).toBe('a_b')
    expect(pathPartOf('y\nwrote x\u001b[2J\u202e\u2028ok\u3164')).toBe('y_wrote x_[2J__ok_')
  })

  it('takes a name holding $ as it is: no replacement pattern pastes the template\'s other parts in', () => {
    expect(baselinePathOf('out/{adapter}/b.yaml', "..$'")).toBe("out/..$'/b.yaml")
    expect(baselinePathOf('out/{adapter}/b.yaml', '$`$&$$')).toBe('out/$`$&$$/b.yaml')
    expect(baselinePathOf('{adapter}-{adapter}.yaml', 'x')).toBe('x-x.yaml')
  })
})

describe('the committed baselines of the upstream builds', () => {
  const folder = join(projectRoot, 'baselines')
  const files = readdirSync(folder).filter((name) => name.endsWith('.yaml')).sort()
  const findings = readFileSync(join(projectRoot, 'docs/findings.md'), 'utf8')
  const requirementIds = new Set(readSpecCatalog(join(projectRoot, 'spec')).requirements.map((requirement) => requirement.id))

  it('exist for the four published dsh-session versions and the JSONL backend', () => {
    expect(files).toEqual(['dsh-session-persistence-jsonl@0.1.0-rc.8.yaml', 'dsh-session@0.1.0-rc.6.yaml', 'dsh-session@0.1.0-rc.7.yaml', 'dsh-session@0.1.0-rc.8.yaml', 'dsh-session@0.1.1-rc.2.yaml'])
  })

  it.each(files)('%s: names its adapter, and every reason names a finding class or scope of docs/findings.md that lists the case, and spec rules that exist', (file) => {
    const baseline = readBaseline(join(folder, file))
    expect(`${baseline.adapter}.yaml`).toBe(file)
    expect(baseline.failures.length).toBeGreaterThan(0)
    for (const { id, reason } of baseline.failures) {
      const tag = /^(U\d+|scope-[a-z-]+) \(docs\/findings\.md\)/.exec(reason)?.[1]
      expect(tag, `${id}: a reason starts with "U<n> (docs/findings.md)" or "scope-<name> (docs/findings.md)", the finding it belongs to, not: ${reason}`).toBeDefined()
      const entry = findingEntry(findings, tag!)
      expect(entry, `${id}: ${tag} is neither a class (a row "| ${tag} |") nor a scope (a bullet "- **${tag}: …**") of docs/findings.md`).toBeDefined()
      expect(listsCase(entry!, id), `${id}: docs/findings.md's ${tag} does not list it (by id, or by a glob such as zstd-*)`).toBe(true)
      const cited = [...reason.matchAll(/\b([A-Z]+-\d+)\b/g)].map((match) => match[1]!)
      expect(cited.length, `${id}: the reason names no requirement`).toBeGreaterThan(0)
      expect(cited.filter((cite) => !requirementIds.has(cite)), id).toEqual([])
    }
  })

  // A run only notes a stale hash (the case ids still apply); the committed files must not keep one.
  const suiteHash = suiteContentHash(loadVectorCases())
  it.each(files)('%s: is stamped with the suite it was written against, this one', (file) => {
    expect(readBaseline(join(folder, file)).suiteHash, `stale: rewrite it with --write-baseline (docs/maintaining.md, step 6)`).toBe(suiteHash)
  })
})

// Written by the mutation audit of the runner's verdict code: each pins what another test left open.
describe('writing a baseline over one written for other cases', () => {
  it('drops the entries of cases this run has and that no longer fail', () => {
    const suiteCases = ['surf-a', 'surf-b', 'surf-c', 'comp-a', 'comp-b', 'jsonl-a', 'not-run-here'].map((id) => ({ id, requirements: ['SURF-6'] }))
    // A suite's baseline (no `vectors`) given to a run of a folder: written for other cases.
    const previous: Baseline = {
      adapter: 'fake-impl',
      failures: [
        { id: 'surf-b', reason: 'U4: shapes' },
        { id: 'surf-c', reason: 'U4: shapes' },
        { id: 'jsonl-a', reason: 'fixed since' },
        { id: 'withdrawn-case', reason: 'gone from the suite' },
      ],
    }
    const written = currentBaseline({ adapter: 'fake-impl', suite: { ...SUITE, vectors: 'my-vectors' }, outcomes: OUTCOMES, suiteCases, previous })
    // jsonl-a passes in OUTCOMES: it may not stay listed, or a later regression of it is excused; surf-c
    // errs, which says nothing of its answer, so its entry stays.
    expect(written.failures.map((entry) => entry.id)).toEqual(['surf-b', 'surf-c', 'comp-b', 'withdrawn-case'])
  })
})

describe('checking a baseline', () => {
  it('refuses a vectors member that is no string', () => {
    expect(() => baselineFrom({ adapter: 'x', vectors: 5, failures: [] }, 'b.yaml')).toThrow('b.yaml: not a baseline: vectors must be a non-empty string')
  })

  it('names the line of a bad adapter member, wherever it is', () => {
    expect(() => parseBaseline('failures: []\nadapter: 7\n', 'b.yaml')).toThrow('b.yaml:2: not a baseline: adapter must be a non-empty string')
  })
})

describe('notes of a baseline compared with a run', () => {
  const listed = (...ids: string[]): Baseline => ({ adapter: 'fake-impl', failures: ids.map((id) => ({ id, reason: 'r' })) })

  it('compares without the case ids, which the API leaves optional', () => {
    const outcomes: CaseOutcome[] = [{ id: 'a', status: 'fail' }]
    const verdict = compareWithBaseline(outcomes, listed('a'), { source: 'b.yaml', adapter: 'fake-impl', suite: { ...SUITE, vectors: 'my-vectors' } })
    expect(verdict.stillFailing).toEqual(['a'])
    expect(verdict.notes).toEqual([])
  })

  it('says "are" of several shared ids', () => {
    const verdict = compareWithBaseline([], listed('a', 'b'), { source: 'b.yaml', adapter: 'fake-impl', suite: { ...SUITE, vectors: 'my-vectors' }, caseIds: new Set(['a', 'b']) })
    expect(verdict.notes[0]).toContain('though 2 of its 2 ids are among them')
  })

  it('names the suite\'s own cases as "this suite"', () => {
    expect(casesOfRun(SUITE)).toBe('this suite')
    expect(casesOfRun({ ...SUITE, vectors: 'my-vectors' })).toBe('the vectors under my-vectors')
  })
})

describe('the YAML a baseline is written as', () => {
  const pair = (id: string, reason: string) => [{ id: `${id}1`, reason }, { id: `${id}2`, reason }]

  it('takes a tag followed by a blank as the anchor name', () => {
    const yaml = formatBaseline({ adapter: 'x', failures: pair('a', 'TURN-8 and TURN-9 broken') }, 'b.yaml')
    expect(yaml).toContain('reason: *TURN-8\n')
  })

  it('numbers the third reason of one tag -3', () => {
    const yaml = formatBaseline({ adapter: 'x', failures: [...pair('a', 'U4: one'), ...pair('b', 'U4: two'), ...pair('c', 'U4: three')] }, 'b.yaml')
    for (const anchor of ['U4', 'U4-2', 'U4-3']) expect(yaml).toContain(`reason: *${anchor}\n`)
  })

  it('keeps a reason of 85 characters on one line (a line of 99)', () => {
    const reason = `U4: ${'x'.repeat(40)} ${'y'.repeat(40)}`
    expect(formatBaseline({ adapter: 'x', failures: [{ id: 'a', reason }] }, 'b.yaml')).toContain(`reason: "${reason}"\n`)
  })
})
