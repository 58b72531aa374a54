// The reports of a run: the JSON report validates against schemas/run-report.schema.json; the JUnit
// XML is well-formed and counts failures, errors and skips right (a skip or a baselined failure is a
// <skipped/>, an error an <error>, never a pass); the Markdown names what a CI summary needs. Reports
// of runs and reports written by hand are also compared whole, member by member and line by line.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { compareWithBaseline } from '../conformance/baseline.ts'
import { jsonReport, runReport } from '../conformance/reports/json.ts'
import { junitReport } from '../conformance/reports/junit.ts'
import { markdownReport } from '../conformance/reports/markdown.ts'
import { addReportTargets, type ReportTargets } from '../conformance/reports/write.ts'
import type { AdapterRun } from '../conformance/results.ts'
import { suiteIdentity } from '../conformance/suite-identity.ts'
import { projectRoot } from '../conformance/vector-cases.ts'
import type { RunReport } from '../generated/types/index.ts'
import { BASELINE, baselinedRun, CASES, META, OUTCOMES, plainRun, record, SUITE, unstartedRun } from './support/fake-runs.ts'
import { adapter, counts, entry, HAND_REPORT, reportRun } from './support/hand-reports.ts'
import { errorsOf, schemaValidator } from './support/schemas.ts'
import { descendants, parseXml, unescapeXml, type XmlElement } from './support/xml.ts'

const validate = schemaValidator('run-report')

const countsOf = (element: XmlElement): number[] => ['tests', 'failures', 'errors', 'skipped'].map((name) => Number(element.attributes[name]))
/** The root's counts, and its suites' skipped tests: the root does not count them (see junit.ts). */
const totalsOf = (root: XmlElement): number[] =>
  [...countsOf(root).slice(0, 3), descendants(root, 'testsuite').reduce((sum, suite) => sum + Number(suite.attributes['skipped']), 0)]

function verdictOf(testcase: XmlElement): string {
  const verdict = testcase.children.find((child) => ['failure', 'error', 'skipped'].includes(child.name))
  return verdict === undefined ? 'pass' : `${verdict.name}:${verdict.attributes['type']}`
}

function casesOf(xml: string): Map<string, string> {
  return new Map(descendants(parseXml(xml), 'testcase').map((testcase) => [`${testcase.attributes['classname']} ${testcase.attributes['name']}`, verdictOf(testcase)]))
}

describe('the suite a report names', () => {
  it('is the package, with a content hash that changes with any case, its order included', () => {
    const { name, version } = JSON.parse(readFileSync(join(projectRoot, 'package.json'), 'utf8')) as { name: string; version: string }
    const identity = suiteIdentity(CASES)
    expect(identity).toEqual({ name, version, contentHash: expect.stringMatching(/^sha256:[0-9a-f]{64}$/), caseCount: 6 })
    expect(suiteIdentity(CASES.map((vector) => ({ ...vector })))).toEqual(identity)
    const retitled = CASES.map((vector, index) => (index === 3 ? { ...vector, title: `${vector.title}.` } : vector))
    expect(suiteIdentity(retitled).contentHash).not.toBe(identity.contentHash)
    expect(suiteIdentity([...CASES].reverse()).contentHash).not.toBe(identity.contentHash)
  })
})

describe('JSON report', () => {
  it('validates against its schema, for plain, baselined and unstarted runs, strict or not', () => {
    for (const strict of [false, true]) {
      const text = jsonReport(runReport(record([plainRun(), baselinedRun(), unstartedRun()], strict)))
      const parsed = JSON.parse(text) as unknown
      expect(validate(parsed), errorsOf(validate)).toBe(true)
    }
  })

  it('needs its $schema, which runReport always writes, and takes the case ids a vector file takes', () => {
    const report = JSON.parse(jsonReport(runReport(record([baselinedRun()])))) as RunReport
    const { $schema: _schema, ...withoutSchema } = report
    expect(validate(withoutSchema), 'a report without $schema').toBe(false)
    const run = report.runs[0]!
    const withCaseId = (id: string): RunReport => ({ ...report, runs: [{ ...run, cases: [{ ...run.cases[0]!, id }] }] })
    expect(validate(withCaseId('surf-9')), errorsOf(validate)).toBe(true)
    expect(validate(withCaseId('-surf')), 'a case id that starts with a hyphen').toBe(false)
    const failing = run.cases.find(item => item.diff !== undefined)!
    const withAt = (at: unknown): unknown => ({ ...report, runs: [{ ...run, cases: [{ ...failing, diff: { ...failing.diff, at } }] }] })
    expect(validate(withAt({ index: 152, line: 2, column: 79 })), errorsOf(validate)).toBe(true)
    expect(validate(withAt({ index: 152, line: 0, column: 79 })), 'lines count from 1').toBe(false)
    type CaseDefs = { $defs: Record<string, { properties: { id: { pattern: string } } }> }
    const idPattern = (file: string, def: string): string | undefined =>
      (JSON.parse(readFileSync(join(projectRoot, 'schemas', file), 'utf8')) as CaseDefs).$defs[def]?.properties.id.pattern
    const pattern = idPattern('run-report.schema.json', 'RunReportCase')
    expect([idPattern('vector-file.schema.json', 'Case'), idPattern('vector-bundle.schema.json', 'BundleCase')]).toEqual([pattern, pattern])
  })

  it('names the suite hash and the adapter, and records each outcome with its diff and baseline mark', () => {
    const report = runReport(record([baselinedRun()]))
    expect(report.suite).toEqual(SUITE)
    expect(report.$schema).toBe('https://dsh-session-conformance.dev/schemas/v0/run-report.schema.json')
    const [run] = report.runs
    expect(run?.adapter).toMatchObject({ name: 'fake-impl', version: '1.2.3', transport: 'subprocess' })
    expect(run?.totals).toEqual({ pass: 2, fail: 2, error: 1, skip: 1 })
    const byId = new Map(run?.cases.map((entry) => [entry.id, entry]))
    expect(byId.get('comp-b')).toMatchObject({ status: 'fail', baseline: 'known-failure', diff: { divergingSeq: 3 } })
    expect(byId.get('surf-b')).toMatchObject({ status: 'fail', baseline: 'new-fail', diff: { path: '$.nodes[0]', expected: '3', actual: '2' } })
    expect(byId.get('jsonl-a')).toMatchObject({ status: 'pass', baseline: 'new-pass', baselineReason: 'scope-jsonl: JSONL-6 not in the package' })
    expect(byId.get('comp-a')).toMatchObject({ status: 'skip', reason: 'profile "compaction" not declared' })
    expect(byId.get('comp-a')?.baseline).toBeUndefined()
  })

  it('gives a listed case that was skipped no mark: it neither passed nor failed', () => {
    const run = baselinedRun()
    const listedSkip = { ...run, baseline: { ...run.baseline!, reasons: { ...run.baseline!.reasons, 'comp-a': 'skipped here' } } }
    const entry = runReport(record([listedSkip])).runs[0]?.cases.find((item) => item.id === 'comp-a')
    expect(entry).toMatchObject({ status: 'skip', baselineReason: 'skipped here' })
    expect(entry?.baseline).toBeUndefined()
  })

  it('is the run as data, member by member: what a run has is there, what it lacks is absent', () => {
    const baselined: AdapterRun = {
      label: 'fake-impl-cmd',
      adapter: { ...META, homepage: 'https://example.org/fake-impl' },
      outcomes: [
        OUTCOMES[0]!,
        OUTCOMES[1]!,
        { id: 'comp-a', status: 'skip', reason: 'operation(s) not provided: compactionState' },
      ],
      durationMs: 12,
      stopError: 'crash: the adapter ended with exit code 3 on stop',
      stderrTail: 'last words',
    }
    baselined.baseline = compareWithBaseline(baselined.outcomes, BASELINE, { source: 'baselines/fake.yaml', adapter: META.name, suite: SUITE })
    const bare: AdapterRun = { label: 'bare', adapter: { name: 'bare', version: '0.0.1', language: 'rust', profiles: ['reader'] }, outcomes: [{ id: 'surf-a', status: 'pass' }], durationMs: 3 }
    const filters = { chapters: ['05', '13'], requirements: ['SURF'], profiles: ['reader'], operations: ['surface', 'compactionState'], cases: ['surf-*'] }
    const selected = CASES.filter((vector) => ['surf-a', 'surf-b', 'comp-a'].includes(vector.id))
    const report = runReport({ ...record([baselined, bare]), filters, cases: selected })
    expect(report).toStrictEqual({
      $schema: 'https://dsh-session-conformance.dev/schemas/v0/run-report.schema.json',
      reportVersion: 1,
      tool: { name: 'dsh-conformance', version: SUITE.version },
      suite: SUITE,
      selection: { ...filters, caseCount: 3 },
      strictBaseline: false,
      startedAt: '2025-01-02T03:04:05.678Z',
      durationMs: 42,
      passed: false,
      runs: [
        {
          label: 'fake-impl-cmd',
          adapter: { name: 'fake-impl', version: '1.2.3', language: 'javascript', homepage: 'https://example.org/fake-impl', profiles: ['reader', 'relations', 'jsonl'], transport: 'subprocess' },
          passed: false,
          partialClaim: true,
          durationMs: 12,
          totals: { pass: 1, fail: 1, error: 0, skip: 1 },
          cases: [
            entry('surf-a', '05-surface', ['SURF-1'], { durationMs: 1.5 }),
            entry('surf-b', '05-surface', ['SURF-1', 'SURF-5'], {
              status: 'fail', step: 0, operation: 'surface',
              reason: 'step 0 (surface): value differs at $.nodes[0]: expected 3, actual 2', diff: { path: '$.nodes[0]', expected: '3', actual: '2' }, baseline: 'new-fail', durationMs: 2,
            }),
            entry('comp-a', '13-compaction', ['COMP-2'], { profile: 'compaction', status: 'skip', reason: 'operation(s) not provided: compactionState' }),
          ],
          stopError: 'crash: the adapter ended with exit code 3 on stop',
          baseline: { source: 'baselines/fake.yaml', newFailures: ['surf-b'], newPasses: [], stillFailing: [], notRun: ['comp-b', 'jsonl-a'], unknownIds: [], notes: [] },
          stderrTail: 'last words',
          warnings: ['profile compaction is claimed, but 1 of its cases was skipped for operations the adapter does not provide: compactionState'],
        },
        {
          label: 'bare',
          adapter: { name: 'bare', version: '0.0.1', language: 'rust', profiles: ['reader'], transport: 'in-process' },
          passed: true,
          partialClaim: false,
          durationMs: 3,
          totals: { pass: 1, fail: 0, error: 0, skip: 0 },
          cases: [entry('surf-a', '05-surface', ['SURF-1'], {})],
        },
      ],
    })
    expect(validate(report), errorsOf(validate)).toBe(true)
    expect(runReport(record([bare])).passed).toBe(true)
  })

  it('warns, in the run\'s warnings, of fails whose rejection code spec/errors.md does not list', () => {
    const run: AdapterRun = {
      label: 'cannot', adapter: { name: 'cannot', version: '1', language: 'go', profiles: ['reader'] }, durationMs: 1,
      outcomes: [{ id: 'surf-a', status: 'fail', reason: 'step 0 (surface): …', unlistedCode: 'NOT_IMPLEMENTED' }, { id: 'surf-b', status: 'fail', reason: 'step 0 (surface): …', unlistedCode: 'NOT_IMPLEMENTED' }],
    }
    expect(runReport(record([run])).runs[0]!.warnings).toContain('2 cases fail with a rejection code spec/errors.md does not list, so no verdict: NOT_IMPLEMENTED (2); no vector expects it, and an input the implementation cannot handle is answered as unsupported, a failure as an error, never as a rejection with a code of its own')
  })

  it('warns, in the run\'s warnings, of fails where the implementation cannot handle the input, by operation', () => {
    const fail = (id: string, operation: string): AdapterRun['outcomes'][number] => ({ id, status: 'fail', step: 0, operation, reason: `step 0 (${operation}): …`, unsupported: true })
    const run: AdapterRun = {
      label: 'lacking', adapter: { name: 'lacking', version: '1', language: 'go', profiles: ['jsonl'] }, durationMs: 1,
      outcomes: [fail('zstd-a', 'decodeJsonl'), fail('zstd-b', 'decodeJsonl'), fail('store-a', 'store'), { id: 'other', status: 'fail', reason: 'step 0 (load): …' }],
    }
    expect(runReport(record([run])).runs[0]!.warnings).toContain('3 cases fail where the implementation answered that it cannot handle the input (unsupported): decodeJsonl (2), store (1); no claim of their profiles holds while they fail')
  })

  it('marks a fail the implementation cannot handle in the JSON report and JUnit, and calls the claim partial', () => {
    const run: AdapterRun = {
      label: 'lacking', adapter: { name: 'lacking', version: '1', language: 'go', profiles: ['reader'] }, durationMs: 1,
      outcomes: [
        { id: 'surf-a', status: 'pass' },
        { id: 'surf-b', status: 'fail', step: 0, operation: 'surface', reason: 'step 0 (surface): the implementation cannot handle this input (it answered unsupported): no decoder', unsupported: true },
      ],
    }
    const report = runReport(record([run]))
    expect(validate(report), errorsOf(validate)).toBe(true)
    const reported = report.runs[0]!
    expect(reported.partialClaim).toBe(true)
    expect(reported.cases.find(entry => entry.id === 'surf-b')).toMatchObject({ status: 'fail', unsupported: true })
    expect(reported.cases.find(entry => entry.id === 'surf-a')).not.toHaveProperty('unsupported')
    expect(Object.fromEntries(casesOf(junitReport(report)))['lacking.05-surface surf-b']).toBe('failure:unsupported')
    expect(runReport(record([{ ...run, outcomes: [run.outcomes[0]!] }])).runs[0]!.partialClaim).toBe(false)
  })

  it('fails the run on a NEW FAIL, and on a NEW PASS only under strict', () => {
    expect(runReport(record([baselinedRun()])).passed).toBe(false)
    const onlyKnown = baselinedRun()
    onlyKnown.outcomes = onlyKnown.outcomes.filter((outcome) => !['surf-b', 'surf-c'].includes(outcome.id))
    onlyKnown.baseline = { ...onlyKnown.baseline!, newFailures: [] }
    expect(runReport(record([onlyKnown])).passed).toBe(true)
    expect(runReport(record([onlyKnown], true)).passed).toBe(false)
    expect(runReport(record([unstartedRun()])).passed).toBe(false)
  })
})

describe('JUnit report', () => {
  it('is well-formed XML even with markup, control characters and lone surrogates in reasons', () => {
    const xml = junitReport(runReport(record([plainRun(), baselinedRun(), unstartedRun()])))
    const root = parseXml(xml)
    expect(root.name).toBe('testsuites')
    const error = descendants(root, 'error').find((element) => element.attributes['message']?.includes('load threw'))
    expect(unescapeXml(error!.attributes['message']!)).toContain('<tag> & "quotes" ]]> \\u0001 lone \\ud800 done')
  })

  it('without a baseline: fails are <failure>, errors <error>, skips <skipped/>, and the counts add up', () => {
    const xml = junitReport(runReport(record([plainRun()])))
    const root = parseXml(xml)
    // The attributes Jenkins' xunit schema (junit-10.xsd) allows on the root, which it checks.
    expect(Object.keys(root.attributes)).toEqual(['name', 'tests', 'failures', 'errors', 'time'])
    expect(totalsOf(root)).toEqual([6, 2, 1, 1])
    const suites = descendants(root, 'testsuite')
    expect(suites.map((suite) => suite.attributes['name'])).toEqual(['fake-impl 05-surface', 'fake-impl 13-compaction', 'fake-impl 19-jsonl'])
    expect(suites.map(countsOf)).toEqual([[3, 1, 1, 0], [2, 1, 0, 1], [1, 0, 0, 0]])
    expect(Object.fromEntries(casesOf(xml))).toEqual({
      'fake-impl.05-surface surf-a': 'pass',
      'fake-impl.05-surface surf-b': 'failure:fail',
      'fake-impl.05-surface surf-c': 'error:error',
      'fake-impl.13-compaction comp-a': 'skipped:skip',
      'fake-impl.13-compaction comp-b': 'failure:fail',
      'fake-impl.19-jsonl jsonl-a': 'pass',
    })
    const properties = descendants(suites[0]!, 'property').map((property) => property.attributes['value'])
    expect(properties).toContain(SUITE.contentHash)
  })

  it('with a baseline: a known failure is skipped with its reason, a NEW FAIL fails, a NEW PASS fails only under strict', () => {
    const loose = junitReport(runReport(record([baselinedRun()])))
    expect(casesOf(loose).get('fake-impl.13-compaction comp-b')).toBe('skipped:known-failure')
    expect(casesOf(loose).get('fake-impl.05-surface surf-b')).toBe('failure:fail')
    expect(casesOf(loose).get('fake-impl.19-jsonl jsonl-a')).toBe('pass')
    expect(totalsOf(parseXml(loose))).toEqual([6, 1, 1, 2])
    const known = descendants(parseXml(loose), 'skipped').find((element) => element.attributes['type'] === 'known-failure')
    expect(unescapeXml(known!.attributes['message']!)).toBe('known fail (baseline): U1: PROC-7 wants every violation')
    expect(loose).toContain('NEW FAIL: step 0 (surface)')
    const strict = junitReport(runReport(record([baselinedRun()], true)))
    expect(casesOf(strict).get('fake-impl.19-jsonl jsonl-a')).toBe('failure:new-pass')
    expect(totalsOf(parseXml(strict))).toEqual([6, 2, 1, 2])
  })

  it('an adapter that cannot start is one erroring test that says why', () => {
    const root = parseXml(junitReport(runReport(record([unstartedRun()]))))
    expect(totalsOf(root)).toEqual([1, 0, 1, 0])
    expect(descendants(root, 'error')[0]?.attributes['message']).toContain('crash: the adapter exited')
  })
})

/** Runs without a baseline, failing and passing, and one a baseline lets pass, with cases out of chapter order. */
const PLAIN_REPORT: RunReport = {
  ...HAND_REPORT,
  runs: [
    reportRun('plain-cmd', adapter('plain', '2.0', 'python', ['reader', 'writer'], 'subprocess'), false, counts(1, 1, 1, 0), [
      entry('comp-x', '13-compaction', ['COMP-9'], { status: 'fail', reason: 'a | b', diff: { path: '$', expected: '1', actual: '2' }, durationMs: 5 }),
      entry('surf-x', '05-surface', ['SURF-9'], { status: 'error', reason: 'boom' }),
      entry('surf-y', '05-surface', ['SURF-2'], {}),
    ]),
    reportRun('calm', adapter('calm', '3.0', 'rust'), true, counts(1, 2, 0, 0), [
      entry('surf-y', '05-surface', ['SURF-2'], {}),
      entry('comp-k', '13-compaction', ['COMP-9'], { status: 'fail', reason: 'k', baseline: 'known-failure', baselineReason: 'U3: COMP-9' }),
      entry('comp-j', '13-compaction', ['COMP-9'], { status: 'fail', reason: 'j', baseline: 'known-failure', baselineReason: 'U3: COMP-9' }),
    ], { baseline: { source: 'calm.yaml', newFailures: [], newPasses: [], stillFailing: ['comp-k', 'comp-j'], notRun: [], unknownIds: [], notes: ['written against another suite'] } }),
    reportRun('idle', adapter('idle', '1', 'c'), true, counts(1, 0, 0, 0), [entry('surf-y', '05-surface', ['SURF-2'], {})]),
  ],
}

describe('JUnit report, whole', () => {
  const properties = (name: string, version: string, language: string, baseline?: string): string[] => [
    '    <properties>',
    '      <property name="suite.version" value="9.9.9"/>',
    '      <property name="suite.contentHash" value="sha256:abc"/>',
    `      <property name="adapter.name" value="${name}"/>`,
    `      <property name="adapter.version" value="${version}"/>`,
    `      <property name="adapter.language" value="${language}"/>`,
    ...(baseline === undefined ? [] : [`      <property name="baseline" value="${baseline}"/>`]),
    '    </properties>',
  ]
  const unstarted = 'broken&#9;&quot;cmd&quot;&#13;&#10;--flag'

  it('is this document: suites per chapter, the adapter failures apart, times in seconds, timestamps without fractions', () => {
    expect(junitReport(HAND_REPORT).split('\n')).toEqual([
      '<?xml version="1.0" encoding="UTF-8"?>',
      '<testsuites name="dsh-session-conformance 9.9.9 (sha256:abc)" tests="7" failures="1" errors="3" time="4.321">',
      '  <testsuite name="impl 05-surface" tests="2" failures="1" errors="0" skipped="0" time="1.502" timestamp="2025-01-02T03:04:05">',
      ...properties('impl', '1.0.0', 'go', 'b.yaml'),
      '    <testcase classname="impl.05-surface" name="surf-b" time="1.500">',
      '      <failure type="fail" message="NEW FAIL: step 0 (surface): value differs">step 0 (surface): value differs',
      'second line',
      'requirements: SURF-1, SURF-5',
      'at $.nodes[0]: expected 3, actual 2',
      'logs diverge at seq 4</failure>',
      '    </testcase>',
      '    <testcase classname="impl.05-surface" name="surf-a" time="0.002">',
      '      <system-out>NEW PASS: the baseline lists this case (U1: "listed"); remove it from the baseline</system-out>',
      '    </testcase>',
      '  </testsuite>',
      '  <testsuite name="impl 13-compaction" tests="3" failures="0" errors="1" skipped="2" time="1.250" timestamp="2025-01-02T03:04:05">',
      ...properties('impl', '1.0.0', 'go', 'b.yaml'),
      '    <testcase classname="impl.13-compaction" name="comp-b" time="0.250">',
      '      <skipped type="known-failure" message="known fail (baseline): U2: &quot;SURF-6&quot;">wrong\tanswer',
      'requirements: COMP-2</skipped>',
      '    </testcase>',
      '    <testcase classname="impl.13-compaction" name="comp-a" time="0.000">',
      '      <skipped type="skip" message="skipped"/>',
      '    </testcase>',
      '    <testcase classname="impl.13-compaction" name="comp-c" time="1.000">',
      '      <error type="error" message="NEW FAIL: threw &lt;x&gt;">threw &lt;x&gt;',
      'requirements: COMP-2</error>',
      '    </testcase>',
      '  </testsuite>',
      '  <testsuite name="impl stop" tests="1" failures="0" errors="1" skipped="0" time="0.000" timestamp="2025-01-02T03:04:05">',
      ...properties('impl', '1.0.0', 'go', 'b.yaml'),
      '    <testcase classname="impl.stop" name="adapter stop" time="0.000">',
      '      <error type="stop" message="garbage after the last reply">garbage after the last reply',
      'more',
      "--- the last lines of the adapter's stderr ---",
      'stopping &lt;now&gt;</error>',
      '    </testcase>',
      '  </testsuite>',
      `  <testsuite name="${unstarted}" tests="1" failures="0" errors="1" skipped="0" time="0.000" timestamp="2025-01-02T03:04:05">`,
      ...properties(unstarted, 'unknown', 'unknown'),
      `    <testcase classname="${unstarted}.start" name="adapter start" time="0.000">`,
      '      <error type="start" message="crash: exit 3">crash: exit 3',
      'stack',
      "--- the last lines of the adapter's stderr ---",
      'Traceback:',
      '\t```',
      'ValueError: \\u001b[31mbad</error>',
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
      '',
    ])
  })

  it('gives a fail without a baseline no NEW FAIL prefix, a diff without a diverging seq no such line, and a pass no body', () => {
    const plain = junitReport({ ...PLAIN_REPORT, runs: [PLAIN_REPORT.runs[0]!] }).split('\n')
    expect(plain.slice(1)).toEqual([
      '<testsuites name="dsh-session-conformance 9.9.9 (sha256:abc)" tests="3" failures="1" errors="1" time="4.321">',
      '  <testsuite name="plain 05-surface" tests="2" failures="0" errors="1" skipped="0" time="0.000" timestamp="2025-01-02T03:04:05">',
      ...properties('plain', '2.0', 'python'),
      '    <testcase classname="plain.05-surface" name="surf-x" time="0.000">',
      '      <error type="error" message="boom">boom',
      'requirements: SURF-9</error>',
      '    </testcase>',
      '    <testcase classname="plain.05-surface" name="surf-y" time="0.000"/>',
      '  </testsuite>',
      '  <testsuite name="plain 13-compaction" tests="1" failures="1" errors="0" skipped="0" time="0.005" timestamp="2025-01-02T03:04:05">',
      ...properties('plain', '2.0', 'python'),
      '    <testcase classname="plain.13-compaction" name="comp-x" time="0.005">',
      '      <failure type="fail" message="a | b">a | b',
      'requirements: COMP-9',
      'at $: expected 1, actual 2</failure>',
      '    </testcase>',
      '  </testsuite>',
      '</testsuites>',
      '',
    ])
  })

  it('fails a NEW PASS under --strict-baseline, naming the listed reason', () => {
    const strict = junitReport({ ...HAND_REPORT, strictBaseline: true })
    expect(strict).toContain('<testsuites name="dsh-session-conformance 9.9.9 (sha256:abc)" tests="7" failures="2" errors="3" time="4.321">')
    expect(strict).toContain('      <failure type="new-pass" message="NEW PASS: the baseline lists this case (U1: &quot;listed&quot;); remove it from the baseline"/>')
  })
})

describe('Markdown report, whole', () => {
  /** A run's table of chapters, folded. */
  const byChapter = (...rows: string[]): string[] =>
    ['<details><summary>By chapter</summary>', '', '| chapter | passed | failed | errors | skipped |', '|---|---:|---:|---:|---:|', ...rows, '', '</details>']

  it('is this document: the overview, then per adapter its chapters, failing requirements, news, a broken protocol and known failures', () => {
    expect(markdownReport(HAND_REPORT).split('\n')).toEqual([
      '## dsh-session-conformance 9.9.9: ❌ failed',
      '',
      'Suite `sha256:abc` (5 cases).',
      '',
      '| adapter | version | passed | failed | errors | skipped | baseline | verdict |',
      '|---|---|---:|---:|---:|---:|---|---|',
      '| impl | 1.0.0 | 1 | 2 | 1 | 1 | 1 known, 2 NEW FAIL, 1 NEW PASS | ❌ failed |',
      '| broken "cmd" --flag | — | 0 | 0 | 0 | 0 | — | ❌ not started |',
      '',
      '### impl 1.0.0 — ❌ failed',
      '',
      'go; profiles: reader',
      '',
      ...byChapter('| 05-surface | 1 | 1 | 0 | 0 |', '| 13-compaction | 0 | 1 | 1 | 1 |'),
      '',
      '**Requirements named by failed or errored cases**, (failed + errors)/cases naming each: SURF-1 (1/2), SURF-5 (1/1), COMP-2 (2/3)',
      '',
      '**NEW FAIL (2)**',
      '',
      '| case | requirements | what happened |',
      '|---|---|---|',
      '| `surf-b` | SURF-1, SURF-5 | fail: step 0 (surface): value differs second line |',
      '| `comp-c` | COMP-2 | error: threw \\<x\\> |',
      '',
      '**NEW PASS (1)**',
      '',
      '| case | requirements | what happened |',
      '|---|---|---|',
      '| `surf-a` | SURF-1 | listed as: U1: "listed" |',
      '',
      'After the last case, the adapter broke the protocol: garbage after the last reply more',
      '',
      '<details><summary>1 known failure listed in b.yaml</summary>',
      '',
      '| reason | cases |',
      '|---|---|',
      '| U2: "SURF-6" | `comp-b` |',
      '',
      '</details>',
      '',
      '<details><summary>The last lines of its stderr</summary>',
      '',
      '```text',
      'stopping <now>',
      '```',
      '',
      '</details>',
      '',
      '### broken "cmd" --flag',
      '',
      'Could not be started: crash: exit 3 stack',
      '',
      '<details><summary>The last lines of its stderr</summary>',
      '',
      '````text',
      'Traceback:',
      '\t```',
      'ValueError: \\u001b[31mbad',
      '````',
      '',
      '</details>',
      '',
    ])
  })

  it('is this document for runs without a baseline and runs that pass: only the blocks a run has', () => {
    expect(markdownReport(PLAIN_REPORT).split('\n').slice(4)).toEqual([
      '| adapter | version | passed | failed | errors | skipped | baseline | verdict |',
      '|---|---|---:|---:|---:|---:|---|---|',
      '| plain | 2.0 | 1 | 1 | 1 | 0 | — | ❌ failed |',
      '| calm | 3.0 | 1 | 2 | 0 | 0 | 2 known, 0 NEW FAIL, 0 NEW PASS | ✅ passed (baseline) |',
      '| idle | 1 | 1 | 0 | 0 | 0 | — | ✅ passed |',
      '',
      '### plain 2.0 — ❌ failed',
      '',
      'python; profiles: reader, writer',
      '',
      ...byChapter('| 05-surface | 1 | 0 | 1 | 0 |', '| 13-compaction | 0 | 1 | 0 | 0 |'),
      '',
      '**Requirements named by failed or errored cases**, (failed + errors)/cases naming each: SURF-9 (1/1), COMP-9 (1/1)',
      '',
      '**Failures and errors (2)**',
      '',
      '| case | requirements | what happened |',
      '|---|---|---|',
      '| `comp-x` | COMP-9 | fail: a \\| b |',
      '| `surf-x` | SURF-9 | error: boom |',
      '',
      '### calm 3.0 — ✅ passed (baseline)',
      '',
      'rust; profiles: reader',
      '',
      ...byChapter('| 05-surface | 1 | 0 | 0 | 0 |', '| 13-compaction | 0 | 2 | 0 | 0 |'),
      '',
      '**Requirements named by failed or errored cases**, (failed + errors)/cases naming each: COMP-9 (2/2)',
      '',
      'Note: written against another suite',
      '',
      '<details><summary>2 known failures listed in calm.yaml</summary>',
      '',
      '| reason | cases |',
      '|---|---|',
      '| U3: COMP-9 | `comp-k`, `comp-j` |',
      '',
      '</details>',
      '',
      '### idle 1 — ✅ passed',
      '',
      'c; profiles: reader',
      '',
      ...byChapter('| 05-surface | 1 | 0 | 0 | 0 |'),
      '',
    ])
  })

  it('says when the selection is part of the suite and the baseline strict, and stops a table at 200 rows', () => {
    const many = Array.from({ length: 201 }, (_, index) => ({ ...HAND_REPORT.runs[0]!.cases[0]!, id: `surf-${index}`, baseline: undefined }))
    const run = { ...HAND_REPORT.runs[0]!, cases: many, baseline: undefined, stopError: undefined }
    const markdown = markdownReport({ ...HAND_REPORT, strictBaseline: true, selection: { ...HAND_REPORT.selection, caseCount: 3 }, runs: [run] })
    expect(markdown).toContain('\nSuite `sha256:abc` (3 of 5 cases selected), strict baseline.\n')
    expect(markdown).toContain('\n**Failures and errors (201)**\n')
    expect(markdown).toContain('\n| `surf-199` | SURF-1, SURF-5 | fail: step 0 (surface): value differs second line |\n| … | | 1 more in a JSON report (`--report json=PATH`) |\n')
    expect(markdown).not.toContain('surf-200')
  })
})

describe('Markdown report', () => {
  it('starts with the verdict and the suite hash, then one row and one section per adapter', () => {
    const markdown = markdownReport(runReport(record([plainRun(), baselinedRun(), unstartedRun()])))
    expect(markdown.split('\n')[0]).toBe(`## ${SUITE.name} ${SUITE.version}: ❌ failed`)
    expect(markdown).toContain(`Suite \`${SUITE.contentHash}\` (6 cases).`)
    // Two runs of one name and version are told apart by their places, in the table and the headings.
    expect(markdown).toContain('| fake-impl #1 | 1.2.3 | 2 | 2 | 1 | 1 | — | ❌ failed |')
    expect(markdown).toContain('| fake-impl #2 | 1.2.3 | 2 | 2 | 1 | 1 | 1 known, 2 NEW FAIL, 1 NEW PASS | ❌ failed |')
    expect(markdown.split('\n').filter(line => line.startsWith('### '))).toEqual(['### fake-impl 1.2.3 #1 — ❌ failed', '### fake-impl 1.2.3 #2 — ❌ failed', '### broken-cmd --flag'])
    expect(markdown).toContain('**Requirements named by failed or errored cases**, (failed + errors)/cases naming each: PROC-7 (1/1), SURF-1 (1/2), SURF-5 (2/2), COMP-2 (1/2)')
    expect(markdown).toContain('**NEW FAIL (2)**')
    expect(markdown).toContain('| `jsonl-a` | JSONL-6 | listed as: scope-jsonl: JSONL-6 not in the package |')
    expect(markdown).toContain('| U1: PROC-7 wants every violation | `comp-b` |')
    expect(markdown).toContain('Could not be started: crash: the adapter exited')
    // Table cells stay on one line and cannot open HTML.
    expect(markdown).toContain('load threw: odd text: \\<tag\\> \\& "quotes" \\]\\]\\>')
  })

  it('JUnit: shows a carriage return and format characters of the adapter as escapes, in a message and in a name', () => {
    const text = 'first\rOK \u202egnissap\u202c'
    const run = reportRun('evil\u202e', adapter('evil\u202e', '1', 'x'), false, counts(0, 0, 1, 0), [entry('surf-a', '05-surface', ['SURF-1'], { status: 'error', reason: text })])
    const xml = junitReport({ ...HAND_REPORT, runs: [run] })
    expect(xml).toContain('first\\u000dOK \\u202egnissap\\u202c')
    expect(xml).toContain('name="evil\\u202e 05-surface"')
    expect(xml).not.toMatch(/[\r\u202e\u202c]/)
  })

  it('sets a baseline\'s notes apart from the NEW FAIL table, each a paragraph (a line after a table is one more row)', () => {
    const run = reportRun('calm', adapter('calm', '3.0', 'rust'), false, counts(0, 1, 0, 0), [
      entry('comp-k', '13-compaction', ['COMP-9'], { status: 'fail', reason: 'k', baseline: 'new-fail' }),
    ], { baseline: { source: 'calm.yaml', newFailures: ['comp-k'], newPasses: [], stillFailing: [], notRun: [], unknownIds: [], notes: ['first note', 'second note'] } })
    const lines = markdownReport({ ...HAND_REPORT, runs: [run] }).split('\n')
    const row = lines.indexOf('| `comp-k` | COMP-9 | fail: k |')
    expect(lines.slice(row, row + 5)).toEqual(['| `comp-k` | COMP-9 | fail: k |', '', 'Note: first note', '', 'Note: second note'])
  })

  it('keeps text of the adapter in its table row: no control character, its Markdown shown as text (a bare URL still links)', () => {
    const text = 'first\rsecond | third\u0000 \u001b[31mred **bold** [link](http://x) `tick`'
    const run = reportRun('hostile', adapter('hostile', '1', 'x'), false, counts(0, 0, 1, 0), [entry('surf-a', '05-surface', ['SURF-1'], { status: 'error', reason: text })])
    const rows = markdownReport({ ...HAND_REPORT, runs: [run] }).split('\n').filter(line => line.startsWith('| `surf-a`'))
    expect(rows).toEqual(['| `surf-a` | SURF-1 | error: first second \\| third\\\\u0000 \\\\u001b\\[31mred \\*\\*bold\\*\\* \\[link\\](http://x) \\`tick\\` |'])
  })
})

describe('claims the run did not back', () => {
  it('are warnings in the JSON and Markdown reports, as on the console', () => {
    const run = plainRun()
    run.outcomes = [...run.outcomes.filter((outcome) => outcome.id !== 'jsonl-a'), { id: 'jsonl-a', status: 'skip', reason: 'operation(s) not provided: encodeJsonl' }]
    const report = runReport(record([run]))
    const warning = 'profile jsonl is claimed, but 1 of its cases was skipped for operations the adapter does not provide: encodeJsonl'
    expect(report.runs[0]?.warnings).toEqual([warning])
    expect(validate(report), errorsOf(validate)).toBe(true)
    expect(markdownReport(report)).toContain(`Warning: ${warning}`)
    const [first] = descendants(parseXml(junitReport(report)), 'testsuite')
    expect(first?.children.find((child) => child.name === 'system-out')?.text).toBe(`warning: ${warning}`)
  })

  it('reach the JUnit report as they are when they hold $ patterns (an adapter\'s name, a baseline\'s id)', () => {
    const report = runReport(record([plainRun()]))
    const warning = "the run is of evil$&, $`, $' and $$"
    // A run's warning makes the first suite's output; the run as a whole's is put at its start.
    const whole = "a whole run's $` and $&"
    const hostile = { ...report, warnings: [whole], runs: report.runs.map((run, index) => (index === 0 ? { ...run, warnings: [warning] } : run)) }
    const xml = parseXml(junitReport(hostile))
    const [first] = descendants(xml, 'testsuite')
    // The helper keeps entities as they are written.
    expect(first?.children.find((child) => child.name === 'system-out')?.text).toBe(`warning: ${whole}\nwarning: ${warning}`.replaceAll('&', '&amp;'))
    expect(descendants(xml, 'testcase')).toHaveLength(descendants(parseXml(junitReport(report)), 'testcase').length)
  })

  it('make the Markdown verdict of a passing run a partial claim, as on the console', () => {
    const partial = { ...PLAIN_REPORT, runs: [PLAIN_REPORT.runs[2]!].map((run) => ({ ...run, cases: [...run.cases, entry('surf-z', '05-surface', ['SURF-3'], { status: 'skip', reason: 'operation(s) not provided: messages' })] })) }
    expect(markdownReport(partial).split('\n').filter((line) => line.includes('✅'))).toEqual([
      '| idle | 1 | 1 | 0 | 0 | 0 | — | ✅ passed (partial claim) |',
      '### idle 1 — ✅ passed (partial claim)',
    ])
  })

  it('fail a run that tested nothing in every report, JUnit with a failing test of its own', () => {
    const run = plainRun()
    run.outcomes = run.outcomes.map((outcome) => ({ id: outcome.id, status: 'skip', reason: 'profile "reader" not declared by the adapter' }))
    const report = runReport(record([run]))
    expect(report.runs[0]).toMatchObject({ passed: false, warnings: ['every selected case was skipped, so this run tested nothing: it fails'] })
    const xml = parseXml(junitReport(report))
    expect(totalsOf(xml)).toEqual([run.outcomes.length + 1, 1, 0, run.outcomes.length])
    const suite = descendants(xml, 'testsuite').find((element) => element.attributes['name'] === 'fake-impl run')
    expect(suite === undefined ? [] : countsOf(suite)).toEqual([1, 1, 0, 0])
    expect(casesOf(junitReport(report)).get('fake-impl.run no case ran')).toBe('failure:tested-nothing')
  })

  it('fail a started run given no case at all (a caller of the package may select none); one that never started fails for that alone', () => {
    const report = runReport(record([{ ...plainRun(), outcomes: [] }, unstartedRun()]))
    expect(report.runs[0]).toMatchObject({ passed: false, warnings: ['no case was given, so this run tested nothing: it fails'] })
    expect(report.runs[1]).toMatchObject({ passed: false })
    expect(report.runs[1]?.warnings).toBeUndefined()
    const testedNothing = [...casesOf(junitReport(report))].filter(([, outcome]) => outcome === 'failure:tested-nothing')
    expect(testedNothing.map(([name]) => name)).toEqual(['fake-impl.run no case ran'])
    expect(validate(report), errorsOf(validate)).toBe(true)
  })

  it('judge in JUnit as in JSON whether a run tested nothing: an outcome of a case the run does not list still ran', () => {
    const stray: AdapterRun = { ...plainRun(), outcomes: [{ id: 'not-in-the-suite', status: 'pass', durationMs: 1 }] }
    const report = runReport(record([stray]))
    expect(report.runs[0]).toMatchObject({ passed: true, cases: [], totals: { pass: 1, fail: 0, error: 0, skip: 0 } })
    expect([...casesOf(junitReport(report)).values()]).not.toContain('failure:tested-nothing')
  })
})

describe('an adapter that broke the protocol after its last reply', () => {
  it('fails the run in every report, and says how', () => {
    const run = { ...plainRun(), outcomes: plainRun().outcomes.filter((outcome) => outcome.status === 'pass'), stopError: 'crash: the adapter ended with exit code 3 on stop; it must exit with status 0' }
    const report = runReport(record([run]))
    expect(report.runs[0]).toMatchObject({ passed: false, stopError: run.stopError })
    expect(validate(report), errorsOf(validate)).toBe(true)
    expect(markdownReport(report)).toContain(`After the last case, the adapter broke the protocol: ${run.stopError}`)
    const suites = descendants(parseXml(junitReport(report)), 'testsuite')
    const stop = suites.find((suite) => suite.attributes['name'] === 'fake-impl stop')
    expect(stop === undefined ? [] : countsOf(stop)).toEqual([1, 0, 1, 0])
  })
})

describe('--report', () => {
  it('takes FORMAT=PATH pairs and refuses unknown formats and missing paths', () => {
    const targets: ReportTargets = {}
    expect(addReportTargets(targets, 'json=out/r.json,junit=out/r.xml')).toBeUndefined()
    expect(addReportTargets(targets, 'md=out/r.md')).toBeUndefined()
    expect(targets).toEqual({ json: 'out/r.json', junit: 'out/r.xml', md: 'out/r.md' })
    expect(addReportTargets({}, 'html=x')).toMatch(/unknown report format "html"/)
    expect(addReportTargets({}, 'json')).toMatch(/FORMAT=PATH/)
    expect(addReportTargets({}, 'json=')).toMatch(/FORMAT=PATH/)
    expect(addReportTargets(targets, 'json=out/r.json')).toBeUndefined()
    expect(addReportTargets(targets, 'json=elsewhere.json')).toBe('--report names two json reports, out/r.json and elsewhere.json: a run writes one of each format')
    const commas: ReportTargets = {}
    expect(addReportTargets(commas, 'md=a,b.md,junit=c,d/r.xml')).toBeUndefined()
    expect(commas).toEqual({ md: 'a,b.md', junit: 'c,d/r.xml' })
    expect(addReportTargets({ json: 'r' }, 'md=r')).toBe('--report writes the json and the md report both to r: one would replace the other')
  })
})
