// `dsh-conformance run`: the selected cases against each adapter, each compared with its baseline;
// summaries on stdout, reports and baselines written as asked. The exit status is 1 when any
// adapter's run fails (a fail no baseline covers, an error, a NEW PASS under --strict-baseline, an
// adapter that cannot start), 2 when the command line or a baseline file is wrong, or when a report
// or baseline asked for cannot be written (the others are written all the same).
import { readFileSync } from 'node:fs'
import { adapterRunsFor, stderrBlock } from './adapter-runs.ts'
import { compareWithBaseline, currentBaseline, formatBaseline, readBaseline, reasonAnchors, type Baseline } from './baseline.ts'
import type { CommandOptions } from './cli-options.ts'
import { adapterSummary, overallSummary } from './console-summary.ts'
import { describeFilters, selectCases } from './filters.ts'
import { runReport } from './reports/json.ts'
import { openDescriptor, statOf, writeOutputFile, writeReports } from './reports/write.ts'
import { adapterTitle, countOutcomes, runFails, type AdapterRun } from './results.ts'
import { suiteIdentity, suiteTitle, type SuiteIdentity } from './suite-identity.ts'
import { loadVectorCases, type VectorCase } from './vector-cases.ts'
import { errorMessage, isPrintable, plural, printable, shortened } from './wording.ts'

interface LoadedBaseline {
  path: string
  baseline: Baseline
}

/** The baseline for an adapter: the one naming it, or the only one when only one adapter runs. */
function baselineFor(name: string, baselines: readonly LoadedBaseline[], adapterCount: number): LoadedBaseline | undefined {
  return baselines.find((loaded) => loaded.baseline.adapter === name) ?? (adapterCount === 1 && baselines.length === 1 ? baselines[0] : undefined)
}

function loadBaselines(paths: readonly string[]): LoadedBaseline[] | { error: string } {
  const loaded: LoadedBaseline[] = []
  for (const path of paths) {
    try {
      loaded.push({ path, baseline: readBaseline(path) })
    } catch (error) {
      return { error: errorMessage(error) }
    }
  }
  const names = loaded.map((entry) => entry.baseline.adapter)
  const repeated = names.find((name, index) => names.indexOf(name) !== index)
  return repeated === undefined ? loaded : { error: `two baselines name adapter ${repeated}` }
}

interface BaselineWriting {
  suite: SuiteIdentity
  all: readonly VectorCase[]
  /** The baseline given for the adapter, if any, and its file. */
  previous?: LoadedBaseline
  /** The files this run has written so far: two adapters of one name would write the same file. */
  written: Set<string>
}

/**
 * An adapter's name as one part of a path (`{adapter}`): the name is the adapter's own, so a `/` or `\`
 * in it (`@org/session`) would make folders, a `..` part climb out of the folder the path names, and a
 * control or format character (a line feed) make a file name no listing shows as it is.
 */
export function pathPartOf(name: string): string {
  const part = Array.from(name, (character) => (character === '/' || character === '\\' || !isPrintable(character) ? '_' : character)).join('')
  return part === '.' || part === '..' ? part.replace(/\./g, '_') : part
}

/** The path a --write-baseline template gives an adapter: `{adapter}` replaced by its name as one path part. */
export function baselinePathOf(template: string, name: string): string {
  // Split and joined: replaceAll would read `$'` or `` $` `` in the name as the template's other parts.
  return template.split('{adapter}').join(pathPartOf(name))
}

/** Writes one adapter's --write-baseline file: what was written, or why it could not be. */
function writeBaselineOf(run: AdapterRun, template: string, context: BaselineWriting): { wrote: string } | { error: string } | undefined {
  if (run.adapter === undefined) return undefined
  const name = run.adapter.name
  const path = baselinePathOf(template, name)
  if (context.written.has(path)) return { error: `${path} is not written for ${adapterTitle(run)}: another adapter of this run, also named ${name}, has just written it (give each build a name of its own)` }
  try {
    // Only a regular file can hold a previous baseline: /dev/stdout is this process's own output (a pipe it
    // would read from itself, a terminal waiting for keys).
    const previousPath = context.previous?.path ?? (openDescriptor(path) === undefined && statOf(path)?.isFile() === true ? path : undefined)
    const previous = context.previous?.baseline ?? (previousPath === undefined ? undefined : readBaseline(previousPath))
    const baseline = currentBaseline({ adapter: name, suite: context.suite, outcomes: run.outcomes, suiteCases: context.all, previous })
    // The reasons' anchor names are the author's: keep them, from the file the reasons come from.
    // Its folder is made when missing, as the reports' are.
    writeOutputFile(path, formatBaseline(baseline, path, previousPath === undefined ? undefined : reasonAnchors(readFileSync(previousPath, 'utf8'))))
    context.written.add(path)
    const errors = countOutcomes(run.outcomes).error
    const unlisted = errors === 0 ? '' : `; ${plural(errors, 'error')} not listed, since no baseline excuses an error (a listed case that erred keeps its entry)`
    const kept = new Set(baseline.failures.map((entry) => entry.id))
    const dropped = (previous?.failures ?? []).map((entry) => entry.id).filter((id) => !kept.has(id))
    const droppedText = dropped.length === 0 ? '' : `; dropped ${plural(dropped.length, 'entry', 'entries')} the previous one listed, passing now or no case's: ${shortened(dropped.join(', '), 200)}`
    return { wrote: `wrote ${path} (${plural(baseline.failures.length, 'known failure')} of ${name}${unlisted}${droppedText})` }
  } catch (error) {
    return { error: `cannot write the baseline of ${name} to ${path}: ${errorMessage(error)}` }
  }
}

/** `all` is the suite, or the cases under --vectors: the command line loads them, and tests pass them in to load them once. */
export async function runCommand(options: CommandOptions, all: readonly VectorCase[] = loadVectorCases()): Promise<number> {
  const startedAt = new Date()
  const suite = suiteIdentity(all, options.vectors)
  const cases = selectCases(all, options.filters)
  if (cases.length === 0) {
    console.error(`no case matches the filters ${describeFilters(options.filters)}`)
    return 2
  }
  const baselines = loadBaselines(options.baselines)
  if ('error' in baselines) {
    // It quotes the baseline files (their adapter names, their paths): one line, escaped.
    console.error(printable(baselines.error))
    return 2
  }
  const filtered = describeFilters(options.filters)
  // A report or baseline written to standard output (`json=/dev/stdout`) has it to itself: the console
  // text, the summary and the `wrote …` lines, goes to standard error, so that a pipe gets the file alone.
  const outputs = [...Object.values(options.reports), ...(options.writeBaseline === undefined ? [] : [options.writeBaseline])]
  const say = outputs.some((path) => openDescriptor(path) === 1) ? console.error : console.log
  say(`${printable(suiteTitle(suite))}, suite ${suite.contentHash}: ${filtered === '' ? plural(cases.length, 'case') : `${cases.length} of ${suite.caseCount} cases (${filtered})`}\n`)
  const runs: AdapterRun[] = []
  /** Each baseline that applied, and the first run it applied to. */
  const used = new Map<LoadedBaseline, string>()
  const caseIds = new Set(all.map((vector) => vector.id))
  /** What is wrong with the run as a whole: on stderr as it happens, and in the reports. */
  const warnings: string[] = []
  const warn = (warning: string): void => {
    console.error(`warning: ${printable(warning)}`)
    warnings.push(warning)
  }
  for await (const run of adapterRunsFor(options.adapters, cases, options.timeoutMs)) {
    const loaded = run.adapter === undefined ? undefined : baselineFor(run.adapter.name, baselines, options.adapters.length)
    if (loaded !== undefined && run.adapter !== undefined) {
      const first = used.get(loaded)
      if (first !== undefined) warn(`${loaded.path} applies to ${adapterTitle(run)} as it did to ${first}: two adapters of this run are named ${run.adapter.name}`)
      else used.set(loaded, adapterTitle(run))
      run.baseline = compareWithBaseline(run.outcomes, loaded.baseline, { source: loaded.path, adapter: run.adapter.name, suite, caseIds })
    }
    runs.push(run)
    say(`${adapterSummary(run, cases)}\n`)
    if (run.stderrTail !== undefined && runFails(run, options.strictBaseline)) {
      // Escaped as all else the console shows: an adapter's output must not drive the terminal.
      console.error(`${stderrBlock(printable(shortened(run.adapter?.name ?? run.label, 200)), run.stderrTail)}\n`)
    }
  }
  for (const loaded of baselines.filter((entry) => !used.has(entry))) {
    warn(`${loaded.path} is the baseline of ${loaded.baseline.adapter}, which did not run`)
  }
  say(`${overallSummary(runs, options.strictBaseline)}\n`)
  const outputErrors: string[] = []
  if (options.writeBaseline !== undefined) {
    const written = new Set<string>()
    for (const run of runs) {
      const previous = run.adapter === undefined ? undefined : baselineFor(run.adapter.name, baselines, runs.length)
      const outcome = writeBaselineOf(run, options.writeBaseline, { suite, all, previous, written })
      if (outcome === undefined) continue
      if ('wrote' in outcome) say(printable(outcome.wrote))
      else outputErrors.push(outcome.error)
    }
  }
  const report = runReport({ suite, filters: options.filters, cases, runs, strictBaseline: options.strictBaseline, startedAt, durationMs: Date.now() - startedAt.getTime(), warnings })
  const reports = writeReports(options.reports, report)
  for (const path of reports.paths) say(`wrote ${printable(path)}`)
  outputErrors.push(...reports.errors)
  for (const error of outputErrors) console.error(printable(error))
  if (outputErrors.length > 0) return 2
  return report.passed ? 0 : 1
}
