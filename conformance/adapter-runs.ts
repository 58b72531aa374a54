// Opening an adapter named on the command line and running the selected cases against it, with
// progress on a terminal. `run`, `matrix` and scripts/compat-matrix.ts share this.
import { resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { adapterClaimProblem, type Adapter } from './adapter.ts'
import { AdapterStartFailure } from './adapter-process.ts'
import { adapterByName } from './adapters/registry.ts'
import { adapterLabel, type AdapterSource } from './cli-options.ts'
import { countOutcomes, failedCount, type AdapterRun } from './results.ts'
import type { CaseOutcome } from './run-case.ts'
import { RESTART_NOTE, startSubprocessAdapter } from './subprocess-adapter.ts'
import { runSuite } from './suite.ts'
import { progressLine } from './progress-line.ts'
import type { VectorCase } from './vector-cases.ts'
import { characterCount, errorMessage, indentedLines, printableOutput } from './wording.ts'

const STDERR_LINES_KEPT = 20

export function openAdapter(source: AdapterSource, timeoutMs: number): Promise<Adapter> {
  if (source.kind === 'name') return adapterByName(source.name)
  if (source.kind === 'module') return adapterFromModule(source.path)
  return startSubprocessAdapter(source.command, { timeoutMs })
}

/**
 * The adapter, or undefined once why it could not be started is printed on stderr: compare and fuzz
 * then exit 1, since the adapter failed, not the command. An adapter that claims a profile or provides
 * an operation the spec does not have (a typo, most often) is closed and refused, as run refuses it.
 */
export async function openAdapterOrSayWhyNot(source: AdapterSource, timeoutMs: number): Promise<Adapter | undefined> {
  const start = await startAdapter(source, timeoutMs)
  if ('adapter' in start) return start.adapter
  const stderrLines = start.stderrTail === '' ? '' : `\n${stderrBlock('the adapter', start.stderrTail)}`
  // The reason quotes the adapter (the profiles it claims, what its module threw): its lines escaped,
  // each after the first indented.
  console.error(`the adapter could not be started: ${indentedLines(start.startError)}${stderrLines}`)
  return undefined
}

/**
 * The adapter opened, its claims checked; or why it was not started, with the last lines of its stderr
 * (a subprocess adapter's own words on why it ended, a traceback say). One whose claims are refused is
 * closed.
 */
async function startAdapter(source: AdapterSource, timeoutMs: number): Promise<{ adapter: Adapter } | { startError: string; stderrTail: string }> {
  let adapter: Adapter
  try {
    adapter = await openAdapter(source, timeoutMs)
  } catch (error) {
    return { startError: errorMessage(error), stderrTail: error instanceof AdapterStartFailure ? stderrTailOf(error.stderr) : '' }
  }
  const claimProblem = adapterClaimProblem(adapter)
  if (claimProblem === undefined) return { adapter }
  await closeProblem(adapter)
  return { startError: claimProblem, stderrTail: '' }
}

/**
 * Runs a command's `work` with an opened adapter, then closes it. A close that fails (a subprocess
 * adapter that broke the protocol after its last reply, a module whose close() throws) is the adapter's
 * failure, said on stderr, and turns a passing status into 1, as run counts it.
 */
export async function withOpenedAdapter(adapter: Adapter, work: () => Promise<number>): Promise<number> {
  let status: number
  try {
    status = await work()
  } catch (error) {
    await closeProblem(adapter)
    throw error
  }
  const closing = await closeProblem(adapter)
  if (closing === undefined) return status
  console.error(`the adapter failed as it was closed: ${indentedLines(closing)}`)
  return Math.max(status, 1)
}

const ADAPTER_SHAPE = 'its default export, or its export named adapter, must be {meta: {name, version, language, profiles}, operations}'

/** The Adapter a module exports, by default or as `adapter`; the path is taken from the working directory. */
export async function adapterFromModule(path: string): Promise<Adapter> {
  const exported = await importModule(path)
  const adapter = exported.adapter ?? commonJsAdapter(exported.default)
  if (typeof adapter !== 'object' || adapter === null) throw new Error(`${path} exports no adapter: ${ADAPTER_SHAPE}`)
  const lacking = adapterShapeFaults(adapter as Record<string, unknown>)
  if (lacking.length > 0) throw new Error(`${path} exports an adapter without ${lacking.join(', ')}: ${ADAPTER_SHAPE}`)
  return adapter as Adapter
}

/**
 * A CommonJS module's `module.exports` is its default export, and Node finds its named exports by
 * reading its source, which misses `adapter` in `module.exports = { adapter: {…} }`: such an object,
 * holding an adapter but being none, stands for its `adapter` member.
 */
function commonJsAdapter(exports: unknown): unknown {
  if (typeof exports !== 'object' || exports === null || 'operations' in exports || !('adapter' in exports)) return exports
  return (exports as { adapter: unknown }).adapter
}

/** The module at `path`; a file Node cannot import as a module (a Python script, say) gets a pointer to --adapter-cmd. */
async function importModule(path: string): Promise<{ default?: unknown; adapter?: unknown }> {
  try {
    return await import(pathToFileURL(resolve(path)).href) as { default?: unknown; adapter?: unknown }
  } catch (error) {
    if ((error as { code?: unknown }).code !== 'ERR_UNKNOWN_FILE_EXTENSION') throw error
    throw new Error(`${errorMessage(error)}: --adapter-module takes a JavaScript or TypeScript module; a program in another language speaks the subprocess protocol, given with --adapter-cmd "COMMAND"`)
  }
}

// As schemas/protocol-started.schema.json has them (tests/run-case.test.ts holds them to it): every
// report repeats these members.
export const MOST_NAME_CHARACTERS = 200
export const MOST_HOMEPAGE_CHARACTERS = 2000

/** The fault of a member longer than `most` characters (code points, as JSON Schema counts them), if it is. */
function tooLong(member: string, text: string, most: number): string[] {
  const length = characterCount(text)
  return length > most ? [`${member} (a string of at most ${most} characters; it has ${length})`] : []
}

/** What an exported adapter object lacks: each member of its shape that is missing or of another kind. */
function adapterShapeFaults(adapter: Record<string, unknown>): string[] {
  const meta = adapter['meta']
  const faults: string[] = []
  if (typeof meta !== 'object' || meta === null) faults.push('meta (an object)')
  else {
    const fields = meta as Record<string, unknown>
    // As a subprocess's started reply must (schemas/protocol-started.schema.json): reports and baselines name the adapter by them.
    for (const key of ['name', 'version', 'language']) {
      if (typeof fields[key] !== 'string' || fields[key] === '') faults.push(`meta.${key} (a non-empty string)`)
      else faults.push(...tooLong(`meta.${key}`, fields[key], MOST_NAME_CHARACTERS))
    }
    if (!Array.isArray(fields['profiles'])) faults.push('meta.profiles (an array)')
    if (fields['homepage'] !== undefined && (typeof fields['homepage'] !== 'string' || fields['homepage'] === '')) faults.push('meta.homepage (a non-empty string, when given)')
    else if (typeof fields['homepage'] === 'string') faults.push(...tooLong('meta.homepage', fields['homepage'], MOST_HOMEPAGE_CHARACTERS))
    if (fields['transport'] !== undefined && fields['transport'] !== 'in-process' && fields['transport'] !== 'subprocess') faults.push('meta.transport ("in-process" or "subprocess", when given)')
  }
  if (typeof adapter['operations'] !== 'object' || adapter['operations'] === null) faults.push('operations (an object)')
  return faults
}

/**
 * The last lines of what an adapter wrote to stderr, for a run that failed; when they are only the
 * runner's restart notes, a line says that none of them is the adapter's own.
 */
export function stderrTailOf(stderr: string): string {
  const lines = stderr.trimEnd().split('\n').slice(-STDERR_LINES_KEPT)
  const notesOnly = lines.every(line => line === '' || line === RESTART_NOTE) && lines.includes(RESTART_NOTE)
  return [...lines, ...(notesOnly ? ['[dsh-conformance: the adapter wrote nothing to stderr in these lines]'] : [])].join('\n')
}

/** The last lines of an adapter's stderr under a line naming whose they are (`owner`, shown as given), escaped. */
export function stderrBlock(owner: string, tail: string): string {
  return `--- last lines of ${owner}'s stderr ---\n${printableOutput(tail)}`
}

/** Why closing an adapter failed: a subprocess adapter's close() rejects when the adapter broke the protocol after its last reply. */
async function closeProblem(adapter: Adapter): Promise<string | undefined> {
  try {
    await adapter.close?.()
    return undefined
  } catch (error) {
    return errorMessage(error)
  }
}

/** Runs the cases against one adapter; an adapter that cannot start is a run with a startError. */
export async function runAdapter(source: AdapterSource, cases: readonly VectorCase[], timeoutMs: number): Promise<AdapterRun> {
  const label = adapterLabel(source)
  const started = performance.now()
  const start = await startAdapter(source, timeoutMs)
  if (!('adapter' in start)) {
    const { startError, stderrTail } = start
    return { label, startError, outcomes: [], durationMs: 0, ...(stderrTail === '' ? {} : { stderrTail }) }
  }
  const adapter = start.adapter
  // Progress on a terminal: `name: 120/701, 3 failed`.
  const progress = progressLine()
  let failed = 0
  let outcomes: CaseOutcome[]
  let durationMs: number
  let stopError: string | undefined
  try {
    outcomes = await runSuite(adapter, cases, (done, total, outcome) => {
      if (outcome.status === 'fail' || outcome.status === 'error') failed += 1
      progress.draw(`${adapter.meta.name}: ${done}/${total}${failed > 0 ? `, ${failed} failed` : ''}`, done === total)
    }, { timeoutMs })
    durationMs = Math.round(performance.now() - started)
  } finally {
    progress.clear()
    stopError = await closeProblem(adapter)
  }
  const run: AdapterRun = { label, adapter: adapter.meta, outcomes, durationMs, ...(stopError === undefined ? {} : { stopError }) }
  const stderrTail = stderrTailOf(adapter.stderr?.() ?? '')
  if ((failedCount(countOutcomes(outcomes)) > 0 || stopError !== undefined) && stderrTail !== '') run.stderrTail = stderrTail
  return run
}

/** Each adapter's run in turn, so a caller can print one summary before the next adapter starts. */
export async function* adapterRunsFor(sources: readonly AdapterSource[], cases: readonly VectorCase[], timeoutMs: number): AsyncGenerator<AdapterRun> {
  for (const source of sources) yield await runAdapter(source, cases, timeoutMs)
}
