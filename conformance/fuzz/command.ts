// `dsh-conformance fuzz`: opens the adapter, runs the differential fuzzer with a progress bar on a
// terminal, prints every class of disagreement (known ones with their finding), writes the summary, and
// sets the exit status: 0 when everything found is known, 1 when something new was found, nothing could
// be compared or the adapter could not be started or failed as it was closed, 2 on a usage error, an
// --out folder that cannot be made or written into or a --log naming no log the fuzz can take, 3 when
// the fuzzer itself failed.
import { unlinkSync } from 'node:fs'
import { makeOutputFolder, writeOutputFile } from '../reports/write.ts'
import { isAbsolute, join, relative, resolve } from 'node:path'
import type { Adapter } from '../adapter.ts'
import { openAdapterOrSayWhyNot, withOpenedAdapter } from '../adapter-runs.ts'
import { CRASHES_IN_A_ROW_TO_STOP } from '../suite.ts'
import { walkFolder } from '../folder-walk.ts'
import { isVectorFileName, vectorsDir } from '../vector-cases.ts'
import { nameAndVersion } from '../results.ts'
import type { FuzzSummary } from '../../generated/types/index.ts'
import { fuzz, lackedOperations, VALID, type Finding, type FuzzProgress, type FuzzReport } from './driver.ts'
import { OPERATION_PROFILE } from './probes.ts'
import type { OperationName } from '../vector-cases.ts'
import { appliesTo, readKnownDivergences, type KnownClass, type KnownDivergences } from './known.ts'
import { FUZZ_USAGE, parseFuzzOptions, type FuzzCommandOptions } from './options.ts'
import { errorMessage, fileErrorMessage, indentedLines, plural, printable } from '../wording.ts'
import { progressLine, type ProgressLine } from '../progress-line.ts'
import { readStoredLogs, type StoredLog } from './stored-logs.ts'

const BAR_WIDTH = 24
/** The summary's name in --out. */
const SUMMARY_FILE = 'fuzz-summary.json'

/** A progress bar on a terminal: `name [#####...] 143/5000 runs, 2 classes of disagreement (1 new)`. */
function progressBar(name: string, line: ProgressLine): (progress: FuzzProgress) => void {
  return (progress) => {
    const filled = Math.round((progress.runsDone / progress.runs) * BAR_WIDTH)
    const found = progress.findings === 0 ? '' : `, ${plural(progress.findings, 'class', 'classes')} of disagreement (${progress.newFindings} new)`
    line.draw(`${name} [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${progress.runsDone}/${progress.runs} runs${found}`, progress.runsDone === progress.runs)
  }
}

/**
 * A finding as the report prints it. Its signature and detail quote the adapter, its log and class
 * name come from files: each printable, the detail's first line (a CR LF ends it too) cut before it is
 * escaped, never inside an escape.
 */
function findingLines(finding: Finding, outDir: string): string[] {
  const label = finding.known === undefined ? 'NEW  ' : `KNOWN ${printable(finding.known)}`
  const seq = finding.divergingSeq === undefined ? '' : `, diverges at seq ${finding.divergingSeq}`
  const made = finding.log !== undefined ? `stored log ${printable(finding.log)}` : finding.mutation === undefined ? 'valid log' : `mutation ${finding.mutation}`
  const origin = `${made}${finding.olderShapes === true ? ', older shapes' : ''}`
  const lines = [
    `${label} ${printable(finding.signature)}`,
    `      ${finding.occurrences}× from run ${finding.firstRun} (${origin}); shrunk from ${finding.eventsBefore} to ${plural(finding.eventsAfter, 'event')}${seq}`,
    `      ${printable(finding.detail.split(/\r?\n/)[0]!.slice(0, 300))}`,
  ]
  if (finding.vector !== undefined) lines.push(`      vector ${finding.vector.id}: ${printable(join(outDir, finding.vector.file))}`)
  if (finding.problem !== undefined) lines.push(`      warning: ${printable(finding.problem.slice(0, 300))}`)
  return lines
}

const SUMMARY_SCHEMA = 'https://dsh-session-conformance.dev/schemas/v0/fuzz-summary.schema.json'

/** The summary file (schemas/fuzz-summary.schema.json): no timings, so two runs of a seed differ only where the adapter's answers do. */
function summaryOf(report: FuzzReport): FuzzSummary {
  const { durationMs: _durationMs, ...rest } = report
  return { $schema: SUMMARY_SCHEMA, ...rest }
}

/** Per operation: its probes, those compared, and the reference's rejections among them (so acceptances too). */
function operationCountLines(report: FuzzReport): string[] {
  const width = Math.max(0, ...report.operations.map(operation => operation.length))
  return report.operations.map((operation) => {
    const { probes, compared, rejected } = report.byOperation[operation]!
    return `  ${operation.padEnd(width)}  ${plural(probes, 'probe')}, ${compared} compared: ${compared - rejected} accepted and ${rejected} rejected by the reference`
  })
}

function printReport(report: FuzzReport, options: FuzzCommandOptions, known: readonly KnownClass[] | undefined): void {
  const stopped = report.stoppedByBudget ? 'stopped by the time budget'
    : report.stoppedByFailures ? `stopped: the adapter crashed or timed out on ${CRASHES_IN_A_ROW_TO_STOP} probes in a row` : undefined
  const runs = stopped === undefined ? plural(report.runsDone, 'run') : `${report.runsDone} of ${report.runs} runs (${stopped})`
  const fresh = report.findings.filter(finding => finding.known === undefined).length
  const classes = report.findings.length === 0 ? 'no disagreement' : `${plural(report.findings.length, 'class', 'classes')} of disagreement, ${fresh} not known`
  const open = report.probes - report.compared
  const judged = `${report.compared} of them compared${open === 0 ? '' : ` (the spec leaves the result of the other ${open} open)`}`
  console.log(`${runs}, ${plural(report.probes, 'probe')}, ${judged} in ${(report.durationMs / 1000).toFixed(1)} s: ${classes}`)
  console.log(`${operationCountLines(report).join('\n')}\n`)
  for (const finding of report.findings) console.log(`${findingLines(finding, options.outDir).join('\n')}\n`)
  const undrawn = Object.entries(report.mutations).filter(([name, count]) => count === 0 && name !== VALID).map(([name]) => name)
  if (undrawn.length > 0 && report.logs === undefined) console.log(`${plural(undrawn.length, 'mutation operator')} never drawn in these runs (more runs draw them): ${undrawn.join(', ')}\n`)
  const seen = new Set(report.findings.map(finding => finding.known))
  const unseen = (known ?? []).filter(entry => !seen.has(entry.class)).map(entry => entry.class)
  // `; ` between them: a class's name may hold a comma (`U8, U31`).
  if (unseen.length > 0) console.log(`known classes no disagreement of these runs fell in (drawn too rarely, mended, or a typo): ${[...new Set(unseen)].map(printable).join('; ')}\n`)
  console.log(`wrote ${printable(join(options.outDir, SUMMARY_FILE))}`)
}

/** The classes of a --known file that apply to the adapter; none (with a warning) when the file names others. */
function knownClasses(divergences: KnownDivergences | undefined, path: string | undefined, adapter: Adapter): KnownClass[] | undefined {
  if (divergences === undefined) return undefined
  if (appliesTo(divergences, adapter.meta.name)) return divergences.known
  // Divergences are read only from a --known path.
  console.error(`warning: ${printable(path!)} does not apply to ${printable(adapter.meta.name)}; nothing is tolerated`)
  return []
}

/** The vector files under `dir`, relative to it. */
function vectorFilesIn(dir: string): string[] {
  return walkFolder(dir, isVectorFileName).filter(entry => entry.kind === 'file').map(entry => relative(dir, entry.path))
}

/** `run --vectors DIR` replays every vector under DIR: say so when earlier runs left some this one did not write. */
function warnOfEarlierVectors(dir: string, earlier: readonly string[], report: FuzzReport): void {
  const written = new Set(report.findings.map(finding => finding.vector?.file))
  const left = earlier.filter(file => !written.has(file))
  if (left.length === 0) return
  const shownDir = printable(dir)
  console.error(`warning: ${shownDir} also holds ${plural(left.length, 'vector file')} that earlier runs wrote and this one did not (${left.slice(0, 3).map(printable).join(', ')}${left.length > 3 ? ', …' : ''}); run --vectors ${shownDir} replays them too: empty the folder first to keep this run's alone`)
}

function insideVectors(dir: string): boolean {
  const from = relative(vectorsDir, resolve(dir))
  return from === '' || (!from.startsWith('..') && !isAbsolute(from))
}

/** "claims the reader profile but does not provide its operations a, b", per profile. */
function lackingWarning(name: string, lacking: readonly OperationName[]): string {
  const profiles = [...new Set(lacking.map(operation => OPERATION_PROFILE[operation]!))]
  const claims = profiles.map(profile => {
    const operations = lacking.filter(operation => OPERATION_PROFILE[operation] === profile)
    return `the ${profile} profile but does not provide its ${operations.length === 1 ? 'operation' : 'operations'} ${operations.join(', ')}`
  })
  return `${name} claims ${claims.join('; and ')}, so ${lacking.length === 1 ? 'it is' : 'they are'} not compared`
}

async function fuzzWith(options: FuzzCommandOptions, logs: readonly StoredLog[] | undefined, divergences: KnownDivergences | undefined): Promise<number> {
  const adapter = await openAdapterOrSayWhyNot(options.adapter, options.timeoutMs)
  if (adapter === undefined) return 1
  const line = progressLine()
  try {
    return await withOpenedAdapter(adapter, () => fuzzAndReport(adapter, options, logs, divergences, line))
  } finally {
    line.clear()
  }
}

/**
 * The stored logs --log names that the fuzz can take, each one it cannot named on stderr; none (with
 * why) when a path names no log, as check fails on one, or no log can be taken.
 */
function usableLogs(paths: readonly string[]): StoredLog[] {
  const { logs, unusable, wrong } = readStoredLogs(paths)
  // Each names a file of the folders --log names, whose names are anyone's.
  for (const why of wrong) console.error(`--log ${printable(why)}`)
  for (const why of unusable) console.error(`warning: --log ${printable(why)}`)
  if (wrong.length > 0) return []
  if (logs.length === 0) console.error(`--log names no log the fuzz can take (${paths.map(printable).join(', ')}): nothing to fuzz with`)
  return logs
}

/**
 * An earlier run's summary goes before this run starts: left beside this run's vectors by a run that is
 * interrupted or cannot start, it would describe another seed and other classes.
 */
function removeEarlierSummary(outDir: string): void {
  try {
    unlinkSync(join(outDir, SUMMARY_FILE))
  } catch {
    // None, or no file to remove (a folder of that name: the summary's own write says so).
  }
}

/** Writes the summary into --out; says why it could not, on stderr. */
function summaryWritten(outDir: string, summary: FuzzSummary): boolean {
  const path = join(outDir, SUMMARY_FILE)
  try {
    writeOutputFile(path, `${JSON.stringify(summary, null, 2)}\n`)
    return true
  } catch (error) {
    console.error(`cannot write the summary ${printable(path)}: ${printable(fileErrorMessage(error, path))}`)
    return false
  }
}

/** The fuzz, its report and its exit status (the usage's), with the adapter open. */
async function fuzzAndReport(adapter: Adapter, options: FuzzCommandOptions, logs: readonly StoredLog[] | undefined, divergences: KnownDivergences | undefined, line: ProgressLine): Promise<number> {
  const known = knownClasses(divergences, options.known, adapter)
  const budget = options.timeBudgetSeconds === undefined ? '' : `, time budget ${options.timeBudgetSeconds} s`
  const vocabulary = options.vocabulary === undefined ? '' : `, read with ${options.vocabulary}`
  const cut = options.maxEvents === Number.MAX_SAFE_INTEGER ? '' : `, each cut to its first ${plural(options.maxEvents, 'event')}`
  const over = logs === undefined ? `of logs up to ${plural(options.maxEvents, 'event')}` : `over ${plural(logs.length, 'stored log')}${cut}${vocabulary}`
  console.log(`fuzz ${printable(nameAndVersion(adapter.meta))} against the reference: seed ${options.seed}, ${plural(options.runs, 'run')} ${over}${budget}`)
  const earlier = vectorFilesIn(options.outDir)
  const report = await fuzz(adapter, {
    runs: options.runs, seed: options.seed, outDir: options.outDir, maxEvents: options.maxEvents, timeoutMs: options.timeoutMs, onProgress: progressBar(printable(adapter.meta.name), line),
    ...(options.timeBudgetSeconds === undefined ? {} : { timeBudgetMs: options.timeBudgetSeconds * 1000 }),
    ...(known === undefined ? {} : { known }),
    ...(options.only === undefined ? {} : { only: options.only }),
    ...(logs === undefined ? {} : { logs }),
    ...(options.vocabulary === undefined ? {} : { vocabulary: options.vocabulary }),
  })
  line.clear()
  console.log(`operations compared: ${report.operations.join(', ') || 'none'}`)
  const lacking = lackedOperations(adapter).filter(operation => options.only === undefined || options.only.includes(operation))
  if (lacking.length > 0) console.error(`warning: ${lackingWarning(printable(adapter.meta.name), lacking)}`)
  const written = summaryWritten(options.outDir, summaryOf(report))
  printReport(report, options, known)
  warnOfEarlierVectors(options.outDir, earlier, report)
  if (!written) return 2
  if (report.compared === 0) {
    console.error(`nothing was compared: ${printable(adapter.meta.name)} claims ${report.operations.length === 0 ? 'no profile of the operations it provides' : 'operations no drawn input could judge it on (no log held what they probe, or the spec left their result open)'}, so the fuzz found nothing because it looked at nothing`)
    return 1
  }
  return report.findings.some(finding => finding.known === undefined) ? 1 : 0
}

export async function fuzzCommand(args: readonly string[]): Promise<number> {
  if (args.includes('--help')) {
    console.log(FUZZ_USAGE)
    return 0
  }
  const options = parseFuzzOptions(args)
  if ('error' in options) {
    console.error(`${options.error}\ndsh-conformance fuzz --help lists its options`)
    return 2
  }
  if (insideVectors(options.outDir)) {
    console.error(`--out ${printable(options.outDir)} is inside vectors/: fuzz vectors go elsewhere until a person has reviewed them`)
    return 2
  }
  let divergences: KnownDivergences | undefined
  try {
    divergences = options.known === undefined ? undefined : readKnownDivergences(options.known)
  } catch (error) {
    console.error(printable(errorMessage(error)))
    return 2
  }
  const logs = options.logs === undefined ? undefined : usableLogs(options.logs)
  if (logs !== undefined && logs.length === 0) return 2
  try {
    makeOutputFolder(options.outDir)
  } catch (error) {
    console.error(`cannot make the --out folder ${printable(options.outDir)}: ${printable(fileErrorMessage(error, options.outDir))}`)
    return 2
  }
  removeEarlierSummary(options.outDir)
  try {
    return await fuzzWith(options, logs, divergences)
  } catch (error) {
    console.error(`fuzz failed: ${indentedLines(error instanceof Error ? error.stack ?? error.message : String(error))}`)
    return 3
  }
}
