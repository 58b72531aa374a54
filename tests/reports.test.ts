// The reports of a run: the JSON report validates against schemas/run-report.schema.json; the JUnit
// XML is well-formed and counts failures, errors and skips right (a skip or a baselined failure is a
// <skipped/>, an error an <error>, never a pass); the Markdown names what a CI summary needs.
import { describe, expect, it } from 'vitest'
import { jsonReport, runReport } from '../conformance/reports/json.ts'
import { junitReport } from '../conformance/reports/junit.ts'
import { markdownReport } from '../conformance/reports/markdown.ts'
import { addReportTargets, type ReportTargets } from '../conformance/reports/write.ts'
import { baselinedRun, plainRun, record, SUITE, unstartedRun } from './support/fake-runs.ts'
import { schemaValidator } from './support/schemas.ts'
import { descendants, parseXml, unescapeXml, type XmlElement } from './support/xml.ts'

const validate = schemaValidator('run-report')

const countsOf = (element: XmlElement): number[] => ['tests', 'failures', 'errors', 'skipped'].map((name) => Number(element.attributes[name]))

function verdictOf(testcase: XmlElement): string {
  const verdict = testcase.children.find((child) => ['failure', 'error', 'skipped'].includes(child.name))
  return verdict === undefined ? 'pass' : `${verdict.name}:${verdict.attributes['type']}`
}

function casesOf(xml: string): Map<string, string> {
  return new Map(descendants(parseXml(xml), 'testcase').map((testcase) => [`${testcase.attributes['classname']} ${testcase.attributes['name']}`, verdictOf(testcase)]))
}

describe('JSON report', () => {
  it('validates against its schema, for plain, baselined and unstarted runs, strict or not', () => {
    for (const strict of [false, true]) {
      const text = jsonReport(runReport(record([plainRun(), baselinedRun(), unstartedRun()], strict)))
      const parsed = JSON.parse(text) as unknown
      expect(validate(parsed), JSON.stringify(validate.errors?.slice(0, 3))).toBe(true)
    }
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
    expect(countsOf(root)).toEqual([6, 2, 1, 1])
    const suites = descendants(root, 'testsuite')
    expect(suites.map((suite) => suite.attributes['name'])).toEqual(['fake-impl 05-surface', 'fake-impl 13-compaction', 'fake-impl 19-jsonl'])
    expect(suites.map(countsOf)).toEqual([[3, 1, 1, 0], [2, 1, 0, 1], [1, 0, 0, 0]])
    expect(Object.fromEntries(casesOf(xml))).toEqual({
      'fake-impl/05-surface surf-a': 'pass',
      'fake-impl/05-surface surf-b': 'failure:fail',
      'fake-impl/05-surface surf-c': 'error:error',
      'fake-impl/13-compaction comp-a': 'skipped:skip',
      'fake-impl/13-compaction comp-b': 'failure:fail',
      'fake-impl/19-jsonl jsonl-a': 'pass',
    })
    const properties = descendants(suites[0]!, 'property').map((property) => property.attributes['value'])
    expect(properties).toContain(SUITE.contentHash)
  })

  it('with a baseline: a known failure is skipped with its reason, a NEW FAIL fails, a NEW PASS fails only under strict', () => {
    const loose = junitReport(runReport(record([baselinedRun()])))
    expect(casesOf(loose).get('fake-impl/13-compaction comp-b')).toBe('skipped:known-failure')
    expect(casesOf(loose).get('fake-impl/05-surface surf-b')).toBe('failure:fail')
    expect(casesOf(loose).get('fake-impl/19-jsonl jsonl-a')).toBe('pass')
    expect(countsOf(parseXml(loose))).toEqual([6, 1, 1, 2])
    const known = descendants(parseXml(loose), 'skipped').find((element) => element.attributes['type'] === 'known-failure')
    expect(unescapeXml(known!.attributes['message']!)).toBe('known fail (baseline): U1: PROC-7 wants every violation')
    expect(loose).toContain('NEW FAIL: step 0 (surface)')
    const strict = junitReport(runReport(record([baselinedRun()], true)))
    expect(casesOf(strict).get('fake-impl/19-jsonl jsonl-a')).toBe('failure:new-pass')
    expect(countsOf(parseXml(strict))).toEqual([6, 2, 1, 2])
  })

  it('an adapter that cannot start is one erroring test that says why', () => {
    const root = parseXml(junitReport(runReport(record([unstartedRun()]))))
    expect(countsOf(root)).toEqual([1, 0, 1, 0])
    expect(descendants(root, 'error')[0]?.attributes['message']).toContain('crash: the adapter exited')
  })
})

describe('Markdown report', () => {
  it('starts with the verdict and the suite hash, then one row and one section per adapter', () => {
    const markdown = markdownReport(runReport(record([plainRun(), baselinedRun(), unstartedRun()])))
    expect(markdown.split('\n')[0]).toBe(`## ${SUITE.name} ${SUITE.version}: ❌ failed`)
    expect(markdown).toContain(`Suite \`${SUITE.contentHash}\` (6 cases).`)
    expect(markdown).toContain('| fake-impl | 1.2.3 | 2 | 2 | 1 | 1 | — | ❌ failed |')
    expect(markdown).toContain('| fake-impl | 1.2.3 | 2 | 2 | 1 | 1 | 1 known, 2 NEW FAIL, 1 NEW PASS | ❌ failed |')
    expect(markdown).toContain('**Requirements with failures or errors**, (failed + errors)/cases: PROC-7 (1/1), SURF-1 (1/2), SURF-5 (2/2), COMP-2 (1/2)')
    expect(markdown).toContain('**NEW FAIL (2)**')
    expect(markdown).toContain('| `jsonl-a` | JSONL-6 | listed as: scope-jsonl: JSONL-6 not in the package |')
    expect(markdown).toContain('| U1: PROC-7 wants every violation | `comp-b` |')
    expect(markdown).toContain('Could not be started: crash: the adapter exited')
    // Table cells stay on one line and cannot open HTML.
    expect(markdown).toContain('load threw: odd text: &lt;tag> & "quotes" ]]>')
  })
})

describe('claims the run did not back', () => {
  it('are warnings in the JSON and Markdown reports, as on the console', () => {
    const run = plainRun()
    run.outcomes = [...run.outcomes.filter((outcome) => outcome.id !== 'jsonl-a'), { id: 'jsonl-a', status: 'skip', reason: 'operation(s) not provided: encodeJsonl' }]
    const report = runReport(record([run]))
    const warning = 'profile jsonl is claimed, but 1 of its cases was skipped for operations the adapter does not provide: encodeJsonl'
    expect(report.runs[0]?.warnings).toEqual([warning])
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true)
    expect(markdownReport(report)).toContain(`Warning: ${warning}`)
  })
})

describe('an adapter that broke the protocol after its last reply', () => {
  it('fails the run in every report, and says how', () => {
    const run = { ...plainRun(), outcomes: plainRun().outcomes.filter((outcome) => outcome.status === 'pass'), stopError: 'crash: the adapter ended with exit code 3 on stop; it must exit with status 0' }
    const report = runReport(record([run]))
    expect(report.runs[0]).toMatchObject({ passed: false, stopError: run.stopError })
    expect(validate(report), JSON.stringify(validate.errors)).toBe(true)
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
  })
})
