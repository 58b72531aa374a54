// `fuzz --log`: runs over stored session logs (conformance/fuzz/stored-logs.ts, draw.ts's
// storedLogRun). The logs a path names, those that cannot be used and why; each run a copy of its log
// with a plan of its own; a disagreement found on a stored log shrunk to a vector that names the log;
// the reference against itself over the corpus; the command line.
import { existsSync, mkdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Adapter } from '../../conformance/adapter.ts'
import { referenceAdapter } from '../../conformance/adapters/reference.ts'
import { storedLogRun } from '../../conformance/fuzz/draw.ts'
import { fuzz } from '../../conformance/fuzz/driver.ts'
import { deriveProbe } from '../../conformance/fuzz/probes.ts'
import { parseFuzzOptions } from '../../conformance/fuzz/options.ts'
import { MOST_NESTING, readStoredLogs } from '../../conformance/fuzz/stored-logs.ts'
import { loadVectorFile, projectRoot } from '../../conformance/vector-cases.ts'
import { reference } from '../../reference/index.ts'
import { text, turnLines } from '../check/small-logs.ts'
import { artifactLines, unwrappedToolResult } from '../check/log-generator.ts'
import { isOlderShape } from '../../conformance/generators/index.ts'
import { tempFolder, zstdArtifact } from '../check/support.ts'
import { runCliHere } from '../support/cli.ts'
import { HOSTILE, HOSTILE_ESCAPED, hostileAdapterCommand, RAW_CONTROL } from '../support/hostile-text.ts'
import { errorsOf, schemaValidator } from '../support/schemas.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

/** Writes `name` under the subfolder `sub` of the test's folder, making it first. */
function write(sub: string, name: string, bytes: string | Uint8Array): string {
  mkdirSync(join(folder.dir, sub), { recursive: true })
  return folder.write(join(sub, name), bytes)
}

const CORPUS = join(projectRoot, '..', 'shared', 'corpus', 'upstream-rc8')

/** The reference, but messages leaves out the last message: any log with a message shows it. */
const dropsLastMessage: Adapter = {
  meta: { ...referenceAdapter.meta, name: 'drops-last-message' },
  operations: {
    ...referenceAdapter.operations,
    messages: (input) => {
      const result = reference.messages(input as never)
      return result.ok ? { ok: true, value: result.value.slice(0, -1) } : result
    },
  },
}

describe('the logs --log names', () => {
  it('are the logs of the files and folders given, in order, each once; a log that does not decode is named with why', () => {
    const raw = write('a', 'session.jsonl', text(turnLines()))
    const zstd = write('a', 'b.jsonl.zstd', zstdArtifact(turnLines(), [2]))
    write('a', 'notes.txt', 'not a log')
    write('a', 'broken.jsonl', '{"type":"session"}\n')
    mkdirSync(join(folder.dir, 'empty'))
    const { logs, unusable, wrong } = readStoredLogs([join(folder.dir, 'a'), raw, join(folder.dir, 'missing.jsonl'), join(folder.dir, 'empty')])
    expect(logs.map(log => log.file)).toEqual([zstd, join(folder.dir, 'a', 'session.jsonl')])
    expect(logs[0]).toMatchObject({ header: { version: 0, id: 's' }, events: turnLines().slice(1).map(line => JSON.parse(line) as unknown) })
    expect(unusable).toEqual([
      `${join(folder.dir, 'a', 'broken.jsonl')}: decodeJsonl rejects it with JSONL_HEADER_INVALID at line 1 (the first line is not a session header line: version must be a number, and it is absent), so it holds no events to probe; \`dsh-conformance check\` says more`,
    ])
    // A path given that names no log is a mistake, not a log to pass over.
    expect(wrong).toEqual([
      `${join(folder.dir, 'missing.jsonl')}: no such file or folder`,
      `${join(folder.dir, 'empty')}: no *.jsonl, *.jsonl.zstd or *.jsonl.zst file under ${join(folder.dir, 'empty')}`,
    ])
  })

  it('pass over a log holding a value nested deeper than the fuzz copies, which check reads', () => {
    const nested = (depth: number): string => `${'['.repeat(depth)}${']'.repeat(depth)}`
    // The record and its data are two levels: a list nested MOST_NESTING - 2 deep reaches the limit.
    const message = (depth: number): string => `{"type":"user/message","seq":1,"time":1,"data":{"id":"u1","role":"user","content":[],"source":{"kind":"user"},"x":${nested(depth)}},"surfaceOp":"append"}`
    const at = write('deep', 'at.jsonl', text([...turnLines().slice(0, 2), message(MOST_NESTING - 2)]))
    const past = write('deep', 'past.jsonl', text([...turnLines().slice(0, 2), message(MOST_NESTING - 1)]))
    const { logs, unusable } = readStoredLogs([at, past])
    expect(logs.map(log => log.file)).toEqual([at])
    expect(unusable).toEqual([`${past}: it holds a value nested ${MOST_NESTING + 1} levels deep, past the ${MOST_NESTING} the fuzz copies (check reads it)`])
  })

  it('are each taken by run N mod their count, as a copy of its own, at places drawn from the seed and N', () => {
    const log = { file: 'x.jsonl', header: { version: 0, id: 's', createdAt: 1 }, events: turnLines().slice(1).map(line => JSON.parse(line) as unknown) }
    const first = storedLogRun(3, 0, log, Infinity)
    first.events.pop()
    expect(log.events).toHaveLength(6)
    expect(storedLogRun(3, 0, log, Infinity)).toEqual({ ...first, events: log.events })
    expect(storedLogRun(3, 1, log, Infinity).plan).not.toEqual(first.plan)
    expect(first).toMatchObject({ index: 0, storedLog: 'x.jsonl' })
    expect(first.olderShapes).toBeUndefined()
    // --max-events cuts a longer log to its first events.
    expect(storedLogRun(3, 0, log, 2).events).toEqual(log.events.slice(0, 2))
  })

  it('are read with the vocabulary --vocabulary names by every probe that takes one', () => {
    const log = { file: 'x.jsonl', header: { version: 0, id: 's', createdAt: 1 }, events: turnLines().slice(1).map(line => JSON.parse(line) as unknown) }
    const vocabularies = (operation: 'load' | 'relations' | 'fork'): unknown[] => [...Array(40).keys()].map(index => deriveProbe(storedLogRun(4, index, log, Infinity, 'v0-rc8'), operation)?.extra['vocabulary'])
    // The vocabulary growth edit, which reads a grown log with a vocabulary of its own, leaves these alone.
    expect(vocabularies('relations').every(vocabulary => vocabulary === 'v0-rc8')).toBe(true)
    expect(vocabularies('load').every(vocabulary => vocabulary === 'v0-rc8')).toBe(true)
    // fork takes no vocabulary (PROC-9).
    expect(vocabularies('fork').every(vocabulary => vocabulary === undefined)).toBe(true)
    expect(deriveProbe(storedLogRun(4, 0, log, Infinity), 'relations')?.extra['vocabulary']).toBeUndefined()
  })
})

describe('fuzz over stored logs', () => {
  it('finds a disagreement on a stored log and shrinks it to a vector that names the log, fails the adapter and passes the reference', async () => {
    const stored = readStoredLogs([write('found', 'session.jsonl', text(turnLines()))])
    const out = join(folder.dir, 'found-out')
    const report = await fuzz(dropsLastMessage, { runs: 2, seed: 1, outDir: out, maxEvents: Number.MAX_SAFE_INTEGER, logs: stored.logs, only: ['messages'] })
    expect(report.logs).toEqual([stored.logs[0]!.file])
    expect(report.findings).toHaveLength(1)
    const finding = report.findings[0]!
    expect(finding).toMatchObject({ operation: 'messages', log: stored.logs[0]!.file, occurrences: 2, eventsBefore: 6 })
    expect(finding.eventsAfter).toBeLessThan(6)
    expect(finding.problem).toBeUndefined()
    const vectorText = readFileSync(join(out, finding.vector!.file), 'utf8')
    expect(vectorText).toContain(`from the stored log ${stored.logs[0]!.file}, cut down`)
    const [vector] = loadVectorFile(join(out, finding.vector!.file), finding.vector!.file)
    expect(vector!.steps[0]!.input['events']).toHaveLength(finding.eventsAfter)
  })

  it('on a log in older shapes, names a class of the older shapes only when the log as the reference upgrades it does not show it', async () => {
    // Tool results unwrapped as legacy writers stored them (LEGACY-8), which the reference upgrades.
    const lines = [...artifactLines('legacy-21', 120, 21, { compaction: 0.15, staleBracket: 0.1, prune: 0.6 })].map(unwrappedToolResult)
    const stored = readStoredLogs([write('legacy', 'session.jsonl', text(lines))])
    expect(stored.logs[0]!.events.some(isOlderShape)).toBe(true)
    const onLog = await fuzz(dropsLastMessage, { runs: 1, seed: 1, outDir: join(folder.dir, 'legacy-log'), maxEvents: Number.MAX_SAFE_INTEGER, logs: stored.logs, only: ['messages'] })
    expect(onLog.findings.map(finding => finding.olderShapes)).toEqual([undefined])
    // An adapter that fails only where a record is in an older shape.
    const failsOnOlderShapes: Adapter = {
      meta: { ...referenceAdapter.meta, name: 'fails-on-older-shapes' },
      operations: {
        ...referenceAdapter.operations,
        messages: (input) => ((input as { events: unknown[] }).events.some(isOlderShape) ? { ok: true, value: [] } : reference.messages(input as never)),
      },
    }
    const onShapes = await fuzz(failsOnOlderShapes, { runs: 1, seed: 1, outDir: join(folder.dir, 'legacy-shapes'), maxEvents: Number.MAX_SAFE_INTEGER, logs: stored.logs, only: ['messages'] })
    expect(onShapes.findings.map(finding => finding.olderShapes)).toEqual([true])
    expect(onShapes.findings[0]!.signature).toMatch(/^messages \(older shapes\)/)
  })

  it('counts its runs under no mutation operator, and gives the most events a run took as maxEvents', async () => {
    const stored = readStoredLogs([write('counts', 'session.jsonl', text(turnLines()))])
    const whole = await fuzz(referenceAdapter, { runs: 3, seed: 1, outDir: join(folder.dir, 'counts-whole'), maxEvents: Number.MAX_SAFE_INTEGER, logs: stored.logs })
    expect(Object.values(whole.mutations).every(count => count === 0)).toBe(true)
    expect(whole.maxEvents).toBe(6)
    const cut = await fuzz(referenceAdapter, { runs: 3, seed: 1, outDir: join(folder.dir, 'counts-cut'), maxEvents: 4, logs: stored.logs })
    expect(cut.maxEvents).toBe(4)
    // Of the runs done: one run takes the first log alone, however long the second.
    const [short, long] = [write('counts', 'a-short.jsonl', text(turnLines().slice(0, 3))), write('counts', 'b-long.jsonl', text(turnLines()))]
    const one = await fuzz(referenceAdapter, { runs: 1, seed: 1, outDir: join(folder.dir, 'counts-one'), maxEvents: Number.MAX_SAFE_INTEGER, logs: readStoredLogs([short, long]).logs })
    expect(one.maxEvents).toBe(2)
  })

  it('keeps the time budget between the probes of a run, which over a long log can take minutes', async () => {
    const stored = readStoredLogs([write('slow', 'session.jsonl', text(turnLines()))])
    const slowly = (operation: (input: never) => unknown) => (input: never) => {
      const until = Date.now() + 40
      while (Date.now() < until) { /* a slow implementation */ }
      return operation(input)
    }
    const slow: Adapter = { meta: { ...referenceAdapter.meta, name: 'slow' }, operations: Object.fromEntries(Object.entries(referenceAdapter.operations).map(([name, operation]) => [name, slowly(operation as never)])) }
    const report = await fuzz(slow, { runs: 1, seed: 1, outDir: join(folder.dir, 'slow-out'), maxEvents: Number.MAX_SAFE_INTEGER, logs: stored.logs, timeBudgetMs: 100 })
    expect(report).toMatchObject({ runsDone: 0, stoppedByBudget: true })
    expect(report.probes).toBeLessThan(report.operations.length)
  })

  it('finds nothing when the reference is compared with itself over the corpus', async (context) => {
    if (!existsSync(CORPUS)) context.skip(`the corpus is absent (${CORPUS}); see ../shared/corpus/README.md`)
    const { logs } = readStoredLogs([CORPUS])
    expect(logs.length).toBeGreaterThan(50)
    const report = await fuzz(referenceAdapter, { runs: 60, seed: 2, outDir: join(folder.dir, 'corpus-out'), maxEvents: Number.MAX_SAFE_INTEGER, logs, vocabulary: 'v0-rc8' })
    expect(report.findings).toEqual([])
    expect(report.compared).toBeGreaterThan(60 * 10)
  }, 60_000)
})

describe('fuzz --log on the command line', () => {
  it('is repeated for more logs, cuts them with --max-events, and alone takes --vocabulary', () => {
    expect(parseFuzzOptions(['--adapter', 'reference', '--out', 'o', '--log', 'a.jsonl', '--log=logs/'])).toMatchObject({ logs: ['a.jsonl', 'logs/'] })
    expect(parseFuzzOptions(['--adapter', 'reference', '--out', 'o', '--log', 'a.jsonl', '--max-events', '9'])).toMatchObject({ maxEvents: 9 })
    // Without --max-events a stored log is taken whole; a generated one is drawn up to 60 events.
    expect(parseFuzzOptions(['--adapter', 'reference', '--out', 'o', '--log', 'a.jsonl'])).toMatchObject({ maxEvents: Number.MAX_SAFE_INTEGER })
    expect(parseFuzzOptions(['--adapter', 'reference', '--out', 'o'])).toMatchObject({ maxEvents: 60 })
    expect(parseFuzzOptions(['--adapter', 'reference', '--out', 'o', '--log', 'a.jsonl', '--vocabulary', 'v0-rc8'])).toMatchObject({ vocabulary: 'v0-rc8' })
    expect(parseFuzzOptions(['--adapter', 'reference', '--out', 'o', '--log', 'a.jsonl', '--vocabulary', 'v1'])).toEqual({ error: '--vocabulary is v0-pinned or v0-rc8, not v1' })
    expect(parseFuzzOptions(['--adapter', 'reference', '--out', 'o', '--vocabulary', 'v0-rc8'])).toMatchObject({ error: expect.stringMatching(/^--vocabulary reads stored logs, which --log names/) })
  })

  it('exits 2 when a path given names no log, as check does, whatever the other paths hold', async () => {
    const good = write('cli', 'fine.jsonl', text(turnLines()))
    const missing = join(folder.dir, 'cli', 'typo.jsonl')
    const run = await runCliHere(['fuzz', '--adapter', 'reference', '--log', good, '--log', missing, '--out', join(folder.dir, 'cli-typo')])
    expect(run.stderr).toBe(`--log ${missing}: no such file or folder\n`)
    expect(run.code).toBe(2)
  })

  it('exits 2 when no log it names decodes, saying why of each', async () => {
    const broken = write('cli', 'broken.jsonl', 'not json\n')
    const run = await runCliHere(['fuzz', '--adapter', 'reference', '--log', broken, '--out', join(folder.dir, 'cli-out')])
    expect(run.stderr).toBe(`warning: --log ${broken}: decodeJsonl rejects it with JSONL_HEADER_INVALID at line 1 (the header line is not one JSON text), so it holds no events to probe; \`dsh-conformance check\` says more\n--log names no log the fuzz can take (${broken}): nothing to fuzz with\n`)
    expect(run.code).toBe(2)
  })

  it('names the logs it passes over and the log a finding came from through printable: no file name reaches the terminal raw or makes a line', async () => {
    write('hostile', `good${HOSTILE}.jsonl`, text(turnLines()))
    write('hostile', `bad${HOSTILE}.jsonl`, 'not json\n')
    const logs = join(folder.dir, 'hostile')
    const run = await runCliHere(['fuzz', '--adapter-cmd', hostileAdapterCommand('fake-hostile'), '--log', logs, '--runs', '2', '--out', join(folder.dir, 'hostile-out')])
    expect(run.stderr).toContain(`warning: --log ${logs}/bad${HOSTILE_ESCAPED}.jsonl: decodeJsonl rejects it with JSONL_HEADER_INVALID`)
    expect(run.stdout).toContain(`(stored log ${logs}/good${HOSTILE_ESCAPED}.jsonl)`)
    for (const output of [run.stdout, run.stderr]) {
      expect(output).not.toMatch(RAW_CONTROL)
      expect(output.split('\n').filter(line => line.trimStart().startsWith('forged'))).toEqual([])
    }
    expect(run.code).toBe(1)
  })

  it('says how many logs the runs go over, and writes them in the summary', async () => {
    const log = write('cli', 'good.jsonl', text(turnLines()))
    const out = join(folder.dir, 'cli-good')
    const run = await runCliHere(['fuzz', '--adapter', 'reference', '--log', log, '--runs', '3', '--out', out])
    expect(run.stdout).toMatch(/^fuzz reference \S+ against the reference: seed 1, 3 runs over 1 stored log\n/)
    const cut = await runCliHere(['fuzz', '--adapter', 'reference', '--log', log, '--runs', '3', '--max-events', '4', '--vocabulary', 'v0-rc8', '--out', join(folder.dir, 'cli-cut')])
    expect(cut.stdout).toMatch(/^fuzz reference \S+ against the reference: seed 1, 3 runs over 1 stored log, each cut to its first 4 events, read with v0-rc8\n/)
    // No operator breaks a stored log: the operators' draws say nothing of such runs.
    expect(run.stdout).not.toContain('never drawn')
    expect(run.code).toBe(0)
    const summary = JSON.parse(readFileSync(join(out, 'fuzz-summary.json'), 'utf8')) as { logs: string[] }
    const validSummary = schemaValidator('fuzz-summary')
    expect(validSummary(summary), errorsOf(validSummary)).toBe(true)
    expect(summary.logs).toEqual([log])
  })
})
