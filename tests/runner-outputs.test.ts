// What `dsh-conformance run` makes of the run it has: the exit status when an in-process adapter ends
// the process, errors that no baseline excuses, reports and baselines it cannot write, two adapters of
// one name, adapter-chosen text on a terminal, and a module adapter run by the published entry point.
import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import { afterAll, describe, expect, it } from 'vitest'
import { overallSummary } from '../conformance/console-summary.ts'
import { distinctRunNames } from '../conformance/results.ts'
import { printable } from '../conformance/wording.ts'
import { projectRoot } from '../conformance/vector-cases.ts'
import { plainRun } from './support/fake-runs.ts'
import { CLI, runCli, runCliHere } from './support/cli.ts'

const MODULE = 'tests/fakes/module-misbehaviours.ts'
const ONE_CASE = ['--case', 'surf-order-append-only-surface']
const COMMON_JS_META = "{ name: 'common-js', version: '0', language: 'javascript', profiles: ['reader'] }"
const scratch = mkdtempSync(join(tmpdir(), 'runner-outputs-'))
afterAll(() => rmSync(scratch, { recursive: true, force: true }))

describe('dsh-conformance run', () => {
  it('fails a run that an in-process adapter ends with process.exit(0) before it is done', async () => {
    const ended = await runCli(['run', '--adapter-module', MODULE, '--case', 'surf-order-chain-*'], { MODULE_MISBEHAVIOUR: 'exit' })
    expect(ended.stderr).toContain('the process ended before the run finished')
    expect(ended.code).toBe(1)
  })

  it('runs a TypeScript module adapter through the published entry point, also from a folder of CommonJS', async () => {
    // The scratch folder has no package.json, so Node takes a .ts file there for CommonJS.
    const module = join(scratch, 'bare-adapter.ts')
    writeFileSync(module, `export const adapter = {
  meta: { name: 'bare', version: '1.0.0', language: 'typescript', profiles: ['reader'] },
  operations: { surface: () => ({ ok: true, value: { nodes: [0, 1, 2], replacements: [], generation: 0 } }) },
}
`)
    const bin = join(projectRoot, 'conformance/bin.mjs')
    const { stdout } = await promisify(execFile)('node', [bin, 'run', '--adapter-module', module, ...ONE_CASE], { cwd: projectRoot })
    expect(stdout).toMatch(/\nbare +1 +0 +0 +0 +- +- +passed\n/)
  })

  it('fails a listed case that errs: a baseline lists wrong answers, and excuses no crash or timeout', async () => {
    const baseline = join(scratch, 'hang.yaml')
    writeFileSync(baseline, 'adapter: fake-hang\nfailures:\n  - {id: surf-order-append-only-surface, reason: "SURF-6: a wrong answer, once"}\n')
    const reports = join(scratch, 'listed-error')
    const hung = await runCliHere(['run', '--adapter-cmd', 'node tests/fakes/fake-adapter.mjs hang', '--timeout', '500', '--baseline', baseline, '--report', `md=${reports}/r.md,junit=${reports}/r.xml`, ...ONE_CASE])
    // Each output says the case is listed, lest its author wonder why the listing did not hold.
    expect(hung.stdout).toMatch(/NEW FAIL surf-order-append-only-surface \(vectors\/05-surface\/replace-ordering.yaml; SURF-3\): listed in the baseline, but an error, which no baseline excuses: timeout/)
    expect(readFileSync(join(reports, 'r.md'), 'utf8')).toContain('error (listed in the baseline, but an error, which no baseline excuses): timeout')
    expect(readFileSync(join(reports, 'r.xml'), 'utf8')).toContain('message="NEW FAIL (listed in the baseline, but an error, which no baseline excuses): timeout')
    expect(hung.code).toBe(1)
  })

  it('says which report or baseline it cannot write, writes the others, and exits 2', async () => {
    const bad = join(scratch, 'not-a-baseline.yaml')
    writeFileSync(bad, 'not: [a, baseline')
    const json = join(scratch, 'report.json')
    const written = await runCliHere(['run', ...ONE_CASE, '--write-baseline', bad, '--report', `json=${json},junit=${scratch}`])
    expect(written.stderr).toContain(`cannot write the baseline of reference to ${bad}:`)
    expect(written.stderr).toContain(`cannot write the junit report to ${scratch}:`)
    expect(written.stderr).not.toMatch(/\n\s+at /)
    expect(existsSync(json)).toBe(true)
    expect(written.stdout.split('\n').filter((line) => line.startsWith('wrote '))).toEqual([`wrote ${json}`])
    const report = JSON.parse(readFileSync(json, 'utf8')) as { startedAt: string; durationMs: number }
    // The run hashes the whole suite first, which takes more than a millisecond.
    expect(report.durationMs).toBeGreaterThan(0)
    expect(Date.parse(report.startedAt) + report.durationMs).toBeLessThanOrEqual(Date.now())
    expect(written.code).toBe(2)
    // A missing folder is made, as a report's is; a file in its way is named.
    const madeFolder = await runCliHere(['run', ...ONE_CASE, '--write-baseline', join(scratch, 'new/folder/b.yaml')])
    expect(madeFolder.stdout).toContain(`wrote ${join(scratch, 'new/folder/b.yaml')} (0 known failures of reference)`)
    expect(madeFolder.code).toBe(0)
    const blockedBaseline = await runCliHere(['run', ...ONE_CASE, '--write-baseline', join(json, 'b.yaml')])
    expect(blockedBaseline.stderr).toContain(`cannot write the baseline of reference to ${join(json, 'b.yaml')}: ${json} is a file, not a folder`)
    expect(blockedBaseline.code).toBe(2)
    // A report whose folder would go where a file is: the file is named.
    const blocked = await runCliHere(['run', ...ONE_CASE, '--report', `md=${join(json, 'deeper', 'r.md')}`])
    expect(blocked.stderr).toContain(`cannot write the md report to ${join(json, 'deeper', 'r.md')}: ${json} is a file, not a folder`)
    expect(blocked.code).toBe(2)
    // The same, the file being the report's own folder.
    const inTheWay = await runCliHere(['run', ...ONE_CASE, '--report', `md=${join(json, 'r.md')}`])
    expect(inTheWay.stderr).toContain(`cannot write the md report to ${join(json, 'r.md')}: ${json} is a file, not a folder`)
    expect(inTheWay.code).toBe(2)
  })

  const hasProc = existsSync('/proc/self')
  it.skipIf(!hasProc)(`names a report folder the system refuses to make (under /proc) instead of retrying for ever${hasProc ? '' : ' (skipped: no /proc)'}`, async () => {
    const target = '/proc/no-such-folder/r.md'
    // A child with a time limit: Node's own recursive mkdir never returns here.
    const run = await promisify(execFile)('node', [...CLI, 'run', ...ONE_CASE, '--report', `md=${target}`], { cwd: projectRoot, timeout: 15_000 })
      .then(() => ({ code: 0, stderr: '' }), (error: { code: number; stderr: string }) => error)
    expect(run.stderr).toContain(`cannot write the md report to ${target}: ENOENT`)
    expect(run.code).toBe(2)
  })

  it('does not let two adapters of one name write one baseline file over the other', async () => {
    const template = join(scratch, 'wb-{adapter}.yaml')
    const twice = await runCliHere(['run', '--adapter-cmd', 'node tests/fakes/fake-adapter.mjs misorder', '--adapter-cmd', 'node tests/fakes/fake-adapter.mjs misorder', '--case', 'surf-order-chain-fold', '--write-baseline', template])
    expect(twice.stdout).toContain(`wrote ${join(scratch, 'wb-fake-misorder.yaml')}`)
    expect(twice.stderr).toBe(`${join(scratch, 'wb-fake-misorder.yaml')} is not written for fake-misorder 0.0.0 (node tests/fakes/fake-adapter.mjs misorder): another adapter of this run, also named fake-misorder, has just written it (give each build a name of its own)\n`)
    expect(twice.code).toBe(2)
  })

  it('ends when its run is done, though an in-process adapter left a timer running', async () => {
    const lingering = await runCli(['run', '--adapter-module', MODULE, ...ONE_CASE], { MODULE_MISBEHAVIOUR: 'linger' })
    expect(lingering.stdout).toContain('module-misbehaviour 0.0.1')
    expect(lingering.code).toBe(0)
  })

  it('points a file that is no module (a Python script) to --adapter-cmd', async () => {
    const script = join(scratch, 'adapter.py')
    writeFileSync(script, 'print("hi")\n')
    // Under Node, not vitest, whose loader would read the file as JavaScript.
    const given = await runCli(['run', '--adapter-module', script, ...ONE_CASE])
    expect(given.stdout).toMatch(/Unknown file extension "\.py".*: --adapter-module takes a JavaScript or TypeScript module; a program in another language speaks the subprocess protocol, given with --adapter-cmd "COMMAND"/)
    expect(given.code).toBe(1)
  })

  it.each([
    // Node finds no named export in this form under tsx, so the adapter is module.exports' member.
    ['module.exports = { adapter: {…} }', `module.exports = { adapter: { meta: ${COMMON_JS_META}, operations: {} } }`],
    ['exports.adapter = {…}', `exports.adapter = { meta: ${COMMON_JS_META}, operations: {} }`],
    ['module.exports = the adapter', `module.exports = { meta: ${COMMON_JS_META}, operations: {} }`],
  ])('reads a CommonJS module adapter written as %s', async (form, source) => {
    const module = join(scratch, `common-js-${form.length}-${source.length}.cjs`)
    writeFileSync(module, `${source}\n`)
    // Under Node with tsx, as the CLI runs: vitest's loader finds the named export of the first form.
    const given = await runCli(['run', '--adapter-module', module, ...ONE_CASE])
    expect(given.stdout).toContain('common-js 0 (javascript; profiles: reader)')
    expect(given.code).toBe(1)
  })

  it('refuses a module adapter without a version or a language', async () => {
    const unnamed = await runCli(['run', '--adapter-module', MODULE, ...ONE_CASE], { MODULE_MISBEHAVIOUR: 'unnamed' })
    expect(unnamed.stdout).toMatch(/exports an adapter without meta\.(version|language) \(a non-empty string\)/)
    expect(unnamed.code).toBe(1)
  })

  it('shows a control character of an adapter\'s name as an escape, so that it cannot hide the verdict', async () => {
    const escaped = await runCli(['run', '--adapter-module', MODULE, ...ONE_CASE], { MODULE_MISBEHAVIOUR: 'escape' })
    expect(escaped.stdout).toContain('impl\\u001b[8m 0.0.1 (typescript; profiles: reader)')
    expect(escaped.stdout).not.toContain('\u001b')
    expect(escaped.code).toBe(0)
  })
})

describe('matrix output files', () => {
  it('ends matrix with status 2 when its output file cannot be written, the others still written (in a folder it creates)', async () => {
    const markdown = join(scratch, 'matrix.md')
    const underAFile = join(markdown, 'matrix.html')
    writeFileSync(markdown, 'a file, not a folder')
    const failed = await runCliHere(['matrix', ...ONE_CASE, '--md', join(scratch, 'new-folder', 'matrix.md'), '--html', underAFile])
    expect(failed.stderr).toContain(`cannot write ${underAFile}`)
    expect(existsSync(join(scratch, 'new-folder', 'matrix.md'))).toBe(true)
    expect(failed.code).toBe(2)
  })
})

describe('names on a terminal and in reports', () => {
  it('escapes control characters', () => {
    expect(printable('a\u001b[8mb\nc\u0085')).toBe('a\\u001b[8mb\\u000ac\\u0085')
  })

  it('tells two runs of one name apart by their versions', () => {
    const [first, second] = [plainRun(), plainRun()]
    second.adapter = { ...second.adapter!, version: '2.0.0' }
    expect(distinctRunNames([first, second])).toEqual([`fake-impl ${first.adapter!.version}`, 'fake-impl 2.0.0'])
    expect(distinctRunNames([first])).toEqual(['fake-impl'])
    expect(overallSummary([first, second], false)).toContain('fake-impl 2.0.0')
  })

  it('tells two runs of one name and version apart by their places', () => {
    const [first, second, other] = [plainRun(), plainRun(), { label: 'other' }]
    const version = first.adapter!.version
    expect(distinctRunNames([first, other, second])).toEqual([`fake-impl ${version} #1`, 'other', `fake-impl ${version} #2`])
  })
})
