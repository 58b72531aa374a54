// Benchmarks `dsh-conformance check` (conformance/check) and prints ratios measured in one run:
//
// 1. throughput on a generated log of N events (default 1M; the composition of tests/check/log-generator.ts,
//    sized after the rc8 corpus) against a bare loop that reads the same file line by line and JSON.parses
//    each line (target: check >= 0.5x the loop's throughput), and check's line work alone (the reading and
//    the reference's record-line decoding, with no load check), which bounds what check could reach, and
//    a second check of the file in the same process, which shows what V8's warm-up costs a cold start,
//    and a cold check of the log's first 10,000 record lines alone (at most half of them), whose time
//    per line against that of the rest of the log shows where the warm-up falls, and, when the zstd tool
//    is installed, a check of the same log stored as upstream stores it by default (a zstd header frame,
//    then a frame per batch, here per 100 lines), whose frames check decompresses in JavaScript, and
//    `check --writer` of the raw log against check, what the writer rules cost;
// 2. against upstream's validation of the same events: the installed @deepseek-ai/dsh-session's
//    Session.create(id, seed), after reading and row-expanding the file with upstream's own decoder
//    (target: check >= 5x), when that package is installed;
// 3. the peak RSS of each (target for check: <= 250 MB);
// 4. linearity on an adversarial replace-heavy log (a large surface, then many small replaces anywhere in
//    it) at M and 10M events (target: 10x the size costs <= 12x the time), and on a step of many tool
//    calls, all pending at once (one assistant message asking for M/2 calls, then the calls, then their
//    results), at M and 10M events, which holds the pending set's cost per event to the same bound;
// 5. the machine's load average over the minute before the bench, flagged when the machine was busy.
//
// Every measurement runs in a child process of its own (scripts/bench-support.ts). Each ratio is given
// in wall time, which throughput is measured in (work per elapsed second), and in CPU time.
//
// usage: tsx scripts/bench-check.ts [N] [M] [rounds]   (defaults: N = 1000000, M = 100000, rounds = 5)
import { closeSync, mkdtempSync, openSync, readSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { availableParallelism, loadavg, tmpdir } from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { artifactLines, manyCallsLines, replaceHeavyLines } from '../tests/check/log-generator.ts'
import { bestOfRounds, linearity, measure, ratios, row, runChild, writeLines, type Measured } from './bench-support.ts'

const SCRIPT = fileURLToPath(import.meta.url)
const UPSTREAM = '@deepseek-ai/dsh-session'
/** The most record lines of the head file: the start of the log, where a cold check warms up. */
const HEAD_LINES = 10_000
/** The 1-minute load average from which the machine counts as busy for the throughput ratios. */
const BUSY_LOAD = 0.5
/** Record lines per zstd frame of the compressed copy of the log. */
const FRAME_LINES = 100

// ---- what the children measure ---------------------------------------------------------------

/**
 * Calls `onLine` with each line of the file, as `bytes` from `start` to `end` (the line feed), and its
 * number, reading the file in 1 MiB chunks.
 */
function eachLine(file: string, onLine: (bytes: Buffer, start: number, end: number, number: number) => void): number {
  const fd = openSync(file, 'r')
  const chunk = Buffer.allocUnsafe(1 << 20)
  let carry = Buffer.alloc(0)
  let lines = 0
  for (let at = 0; ;) {
    const read = readSync(fd, chunk, 0, chunk.length, at)
    if (read === 0) break
    at += read
    const bytes = carry.length > 0 ? Buffer.concat([carry, chunk.subarray(0, read)]) : chunk.subarray(0, read)
    let start = 0
    for (let feed = bytes.indexOf(10); feed !== -1; feed = bytes.indexOf(10, start)) {
      lines += 1
      onLine(bytes, start, feed, lines)
      start = feed + 1
    }
    carry = Buffer.from(bytes.subarray(start))
  }
  closeSync(fd)
  return lines
}

async function child(kind: string, file: string): Promise<Measured> {
  if (kind === 'parse') return measure(() => `${eachLine(file, (bytes, start, end) => JSON.parse(bytes.toString('utf8', start, end)))} lines`)
  if (kind === 'decode') {
    // check's line work alone: the reference's record-line decoding (JSONL-9, JSONL-10, the ROW rules),
    // with every event counted and none checked.
    const { RecordScanner } = await import('../conformance/check/record-scan.ts')
    const { storedEventCount } = await import('../reference/chunk-rows.ts')
    return measure(() => {
      let events = 0
      const scanner = new RecordScanner(stored => { events += storedEventCount(stored) }, 0)
      eachLine(file, (bytes, start, end, number) => {
        if (number > 1) scanner.judge(bytes.subarray(start, end), number, start, end + 1, false)
      })
      return `${events} events`
    })
  }
  if (kind === 'check' || kind === 'check-warm' || kind === 'check-writer') {
    const { checkFile } = await import('../conformance/check/check-file.ts')
    const { RequirementIndex } = await import('../conformance/check/requirements.ts')
    const requirements = new RequirementIndex()
    const check = (): string => {
      const report = checkFile(file, { vocabulary: 'v0-pinned', maxLineBytes: 64 << 20, writer: kind === 'check-writer' }, requirements)
      return `${report.status}, ${report.outcome.verdict === 'accepted' ? report.outcome.events : 0} events`
    }
    // check-warm: the second check of the file in one process, V8 having compiled check's code.
    if (kind === 'check-warm') check()
    return measure(check)
  }
  const upstream = await import(UPSTREAM) as {
    Session: { create(id: string, seed: readonly unknown[]): { events: readonly unknown[] } }
    decodeStorageRecord(record: unknown): unknown[]
  }
  return measure(() => {
    const events: unknown[] = []
    let id = ''
    eachLine(file, (bytes, start, end) => {
      const value = JSON.parse(bytes.toString('utf8', start, end)) as Record<string, unknown>
      if (value['type'] === 'session') id = String(value['id'])
      else events.push(...upstream.decodeStorageRecord(value))
    })
    const cpu = process.cpuUsage()
    const session = upstream.Session.create(id, events)
    const used = process.cpuUsage(cpu)
    return `${session.events.length} events; Session.create alone ${((used.user + used.system) / 1000).toFixed(0)} ms cpu`
  })
}

// ---- the parent ----------------------------------------------------------------------------

/** The header line and the first `records` record lines of `lines`. */
function* head(lines: Iterable<string>, records: number): Generator<string> {
  let left = records + 1
  for (const line of lines) {
    if (left-- === 0) return
    yield line
  }
}

function upstreamInstalled(): boolean {
  try {
    createRequire(import.meta.url).resolve(`${UPSTREAM}/package.json`)
    return true
  } catch {
    return false
  }
}

/**
 * A cold check's time per line over the log's first `headLines` record lines (`start`, the head file
 * checked alone) against its time per line over the rest (the whole log's time minus the head's).
 */
function warmUpRatio(whole: Measured, start: Measured, headLines: number, recordLines: number): string {
  const rest = recordLines - headLines
  const wall = (start.wallMs / headLines) / ((whole.wallMs - start.wallMs) / rest)
  const cpu = (start.cpuMs / headLines) / ((whole.cpuMs - start.cpuMs) / rest)
  return `${wall.toFixed(2)} (${cpu.toFixed(2)})`
}

/** The load this bench is run under: a cold check's ratio depends on it (docs/bench-check-runs.md). */
function machineLine(loadBefore: number): string {
  // Windows has no load average (os.loadavg() gives zeros there).
  if (process.platform === 'win32') return `\nmachine: ${availableParallelism()} cores; no load average on Windows`
  // Only the load before counts: during the rounds the bench's own children make the load.
  const load = `load average ${loadBefore.toFixed(2)} over the minute before the bench`
  const line = `\nmachine: ${availableParallelism()} cores, ${load}`
  // A cold check compiles its code on the core the main thread leaves free; with that core taken it runs
  // unoptimised longer, and the first ratio drops while the loop, which needs no second core, does not.
  if (loadBefore < BUSY_LOAD) return line
  return `${line}\n  the machine was busy before the rounds: a cold check's ratios understate it; run again once it is quiet`
}

async function main(args: string[]): Promise<void> {
  if (args[0] === '--child') {
    console.log(JSON.stringify(await child(args[1] as string, args[2] as string)))
    return
  }
  const [size = 1_000_000, replaceSize = 100_000, rounds = 5] = args.map(Number)
  const loadBefore = loadavg()[0] as number
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-check-'))
  try {
    const log = path.join(dir, 'bench.jsonl')
    const recordLines = writeLines(log, artifactLines('bench', size, 42)) - 1
    const headLines = Math.min(HEAD_LINES, Math.floor(recordLines / 2))
    const start = path.join(dir, 'bench-head.jsonl')
    writeLines(start, head(artifactLines('bench', size, 42), headLines))

    const zstdLog = path.join(dir, 'bench.jsonl.zstd')
    // Imported here, not at the top, so that the measuring children do not load it.
    const { compressedFrame, hasZstdTool: zstdInstalled, zstdArtifact } = await import('../tests/check/support.ts')
    if (zstdInstalled) writeFileSync(zstdLog, zstdArtifact([...artifactLines('bench', size, 42)], [FRAME_LINES], compressedFrame))

    console.log(`log of ${size} events; best of ${rounds} rounds, each job in a child process\n`)
    const jobs = [['parse', log], ['decode', log], ['check', log], ['check-warm', log], ['check', start], ['check-writer', log], ...(zstdInstalled ? [['check', zstdLog] as const] : [])] as const
    const [parse, decode, check, warm, headCheck, writerCheck, zstdCheck] = bestOfRounds(SCRIPT, jobs, rounds) as [Measured, Measured, Measured, Measured, Measured, Measured, Measured | undefined]
    console.log(row('JSON.parse line loop', parse))
    console.log(row('check: line decoding alone', decode))
    console.log(row('check', check))
    console.log(row('check, second in one process', warm))
    console.log(row(`check, first ${headLines} lines`, headCheck))
    console.log(row('check --writer', writerCheck))
    if (zstdCheck !== undefined) console.log(row(`check, the log as zstd`, zstdCheck))
    const upstream = upstreamInstalled() ? runChild(SCRIPT, 'upstream', log) : undefined
    if (upstream !== undefined) console.log(row('upstream Session.create', upstream))
    const linearityRatios = linearity(SCRIPT, 'check', dir, { 'replace-heavy': replaceHeavyLines, 'many-calls': manyCallsLines }, replaceSize, rounds)

    console.log('\nratios (wall; cpu in parentheses)')
    console.log(`  check throughput / JSON.parse loop throughput: ${ratios(parse, check)}   target >= 0.5`)
    console.log(`    the same for check's line decoding alone:     ${ratios(parse, decode)}   (the most check could reach with free load checks)`)
    console.log(`    the same for a second check in one process:   ${ratios(parse, warm)}   (V8 warmed up: what the cold start costs)`)
    console.log(`  cold check, time per line of the first ${headLines} lines / of the rest: ${warmUpRatio(check, headCheck, headLines, recordLines)}   (where the cold start falls)`)
    console.log(`  check --writer time / check time: ${ratios(writerCheck, check)}   (what the writer rules cost)`)
    if (zstdCheck !== undefined) {
      console.log(`  check of the log as zstd (frames of ${FRAME_LINES} lines) / JSON.parse loop over the raw log: ${ratios(parse, zstdCheck)}   (what decompressing in JavaScript costs)`)
    } else console.log('  zstd: the zstd tool is not installed, so the log was not checked as zstd')
    if (upstream !== undefined) {
      console.log(`  check throughput / upstream Session.create:    ${ratios(upstream, check)}   target >= 5`)
    } else console.log(`  upstream: ${UPSTREAM} is not installed, skipped`)
    console.log(`  check peak RSS: ${check.maxRssMb.toFixed(0)} MB   target <= 250${upstream === undefined ? '' : `; upstream ${upstream.maxRssMb.toFixed(0)} MB`}`)
    for (const line of linearityRatios) console.log(line)
    console.log(machineLine(loadBefore))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await main(process.argv.slice(2))
