// What the benchmarks of stored logs share (scripts/bench-check.ts, scripts/bench-audit.ts): writing a
// generated log to a file, and measuring in child processes. Each measurement runs in a child process
// of its own, the script itself run as `SCRIPT --child KIND FILE`, so that peak RSS is the child's
// (process.resourceUsage().maxRSS) and no job warms V8 up for another. Times are the best of `rounds`,
// the jobs compared taking turns. Each ratio is given in wall time and in CPU time (user + system of
// every thread), which is steadier on a shared machine and also counts the work V8's background threads
// do on other cores.
import { execFileSync } from 'node:child_process'
import { closeSync, openSync, writeSync } from 'node:fs'
import path from 'node:path'

export interface Measured {
  cpuMs: number
  wallMs: number
  maxRssMb: number
  detail: string
}

/** Runs `work` (which says what it did) and measures it; a child prints the result as JSON. */
export function measure(work: () => string): Measured {
  const cpu = process.cpuUsage()
  const wall = performance.now()
  const detail = work()
  const used = process.cpuUsage(cpu)
  return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - wall, maxRssMb: process.resourceUsage().maxRSS / 1024, detail }
}

export function runChild(script: string, kind: string, file: string): Measured {
  const output = execFileSync(process.execPath, ['--import', 'tsx', script, '--child', kind, file], { encoding: 'utf8', maxBuffer: 1 << 24 })
  return JSON.parse(output.trim().split('\n').at(-1) as string) as Measured
}

function best(all: readonly Measured[]): Measured {
  return {
    cpuMs: Math.min(...all.map(run => run.cpuMs)),
    wallMs: Math.min(...all.map(run => run.wallMs)),
    maxRssMb: Math.max(...all.map(run => run.maxRssMb)),
    detail: all[0]?.detail ?? '',
  }
}

/**
 * The best of `rounds` runs of each job of `script`. The jobs take turns, round after round, so that a noisy
 * spell on the shared machine falls on all of them rather than on every run of one, which would skew a
 * ratio.
 */
export function bestOfRounds(script: string, jobs: readonly (readonly [kind: string, file: string])[], rounds: number): Measured[] {
  const measured = jobs.map((): Measured[] => [])
  for (let round = 0; round < rounds; round++) jobs.forEach(([kind, file], index) => measured[index]?.push(runChild(script, kind, file)))
  return measured.map(best)
}

export function row(name: string, measured: Measured): string {
  return `${name.padEnd(28)} ${measured.cpuMs.toFixed(0).padStart(8)} ms cpu ${measured.wallMs.toFixed(0).padStart(8)} ms wall ${measured.maxRssMb.toFixed(0).padStart(6)} MB peak RSS   ${measured.detail}`
}

/** `slow` over `fast` (how many times faster `fast` is), in wall time and in CPU time. */
export function ratios(slow: Measured, fast: Measured): string {
  return `${(slow.wallMs / fast.wallMs).toFixed(2)} (${(slow.cpuMs / fast.cpuMs).toFixed(2)})`
}

/** The log of `shape` at `factor` times the size that `linearity` writes in `dir`. */
export function linearityLog(dir: string, shape: string, factor: 1 | 10): string {
  return path.join(dir, `${shape}-${factor}x.jsonl`)
}

/**
 * Linearity: the job `kind` of `script` on a log of each shape at `size` and at 10 × `size` events,
 * written into `dir`; prints the row of each measurement as it comes and returns, per shape, the ratio
 * of the time at 10× to the time at 1× (target: at most 12×).
 */
export function linearity(script: string, kind: string, dir: string, shapes: Record<string, (size: number) => Iterable<string>>, size: number, rounds: number): string[] {
  return Object.entries(shapes).map(([shape, lines]) => {
    const [small, large] = [linearityLog(dir, shape, 1), linearityLog(dir, shape, 10)]
    writeLines(small, lines(size))
    writeLines(large, lines(10 * size))
    const [smallRun, largeRun] = bestOfRounds(script, [[kind, small], [kind, large]], rounds) as [Measured, Measured]
    console.log(row(`${kind} ${shape} ${size}`, smallRun))
    console.log(row(`${kind} ${shape} ${10 * size}`, largeRun))
    return `  ${`${shape}, time at 10x / time at 1x:`.padEnd(46)} ${ratios(largeRun, smallRun)}   target <= 12`
  })
}

/** Writes `lines`, each ended by a line feed; returns how many. */
export function writeLines(file: string, lines: Iterable<string>): number {
  const fd = openSync(file, 'w')
  let pending: string[] = []
  let size = 0
  let count = 0
  for (const line of lines) {
    count += 1
    pending.push(line)
    size += line.length
    if (size > 1 << 20) {
      writeSync(fd, `${pending.join('\n')}\n`)
      pending = []
      size = 0
    }
  }
  if (pending.length > 0) writeSync(fd, `${pending.join('\n')}\n`)
  closeSync(fd)
  return count
}
