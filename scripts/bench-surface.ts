// Benchmarks the reference surface fold (SURF-11) on an append-only log and on an adversarial
// replace-heavy log, at sizes N and 10N, and prints time ratios measured in one run. On a shared,
// noisy machine absolute times mean little; a linear fold shows a 10N/N ratio near 10 for both logs
// and a replace-heavy/append-only ratio that does not grow with N.
//
// usage: tsx scripts/bench-surface.ts [N] [runs]     (defaults: N = 20000, runs = 7)
import { performance } from 'node:perf_hooks'
import { foldSurface } from '../reference/surface.ts'
import { reference } from '../reference/index.ts'
import type { SessionEvent } from '../reference/envelope.ts'

type Log = SessionEvent[]

/** A small deterministic PRNG (LCG), so every run folds the same logs. */
function random(seed: number): () => number {
  let state = seed >>> 0
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0
    return state / 2 ** 32
  }
}

function userMessage(seq: number, op: SessionEvent['surfaceOp'], sources?: number[]): SessionEvent {
  const data = { id: `m${seq}`, role: 'user', content: [{ type: 'text', text: 'x' }], source: { kind: 'user' } }
  return { type: 'user/message', seq, time: seq, data, surfaceOp: op, ...(sources === undefined ? {} : { sourceEventSeqs: sources }) }
}

function appendOnlyLog(size: number): Log {
  return Array.from({ length: size }, (_, seq) => userMessage(seq, 'append'))
}

/**
 * `size` events: size/2 appends build the surface; then size/4 replaces of two adjacent original
 * nodes each, at random positions; then size/4 one-node replaces of random current nodes.
 */
function replaceHeavyLog(size: number): Log {
  const next = random(size)
  const half = Math.floor(size / 2)
  const log: Log = appendOnlyLog(half)
  const current: number[] = []
  const pairs = Array.from({ length: Math.floor(half / 2) }, (_, index) => index)
  for (let index = pairs.length - 1; index > 0; index--) {
    const other = Math.floor(next() * (index + 1))
    ;[pairs[index], pairs[other]] = [pairs[other]!, pairs[index]!]
  }
  for (const pair of pairs.slice(0, Math.floor(size / 4))) {
    const seq = log.length
    log.push(userMessage(seq, { op: 'replace', start: 2 * pair, end: 2 * pair + 1 }, [2 * pair, 2 * pair + 1]))
    current.push(seq)
  }
  for (let seq = 2 * pairs.length; seq < half; seq++) current.push(seq)
  while (log.length < size) {
    const seq = log.length
    const slot = Math.floor(next() * current.length)
    const target = current[slot]!
    log.push(userMessage(seq, { op: 'replace', start: target, end: target }, [target]))
    current[slot] = seq
  }
  return log
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.floor(sorted.length / 2)]!
}

function elapsed(run: () => unknown): number {
  const started = performance.now()
  run()
  return performance.now() - started
}

interface Measured {
  appendOnly: [number, number]
  replaceHeavy: [number, number]
}

/**
 * Times the four folds in interleaved rounds (so drift on a shared machine hits all of them alike)
 * after one warm-up round, and keeps each fold's median.
 */
function measure(label: string, fold: (log: Log) => unknown, size: number, runs: number): Measured {
  const logs = [appendOnlyLog(size), appendOnlyLog(10 * size), replaceHeavyLog(size), replaceHeavyLog(10 * size)]
  const samples: number[][] = logs.map(() => [])
  for (let round = 0; round <= runs; round++) {
    logs.forEach((log, index) => {
      const time = elapsed(() => fold(log))
      if (round > 0) samples[index]!.push(time)
    })
  }
  const [a1, a10, r1, r10] = samples.map(median) as [number, number, number, number]
  const ms = (value: number): string => `${value.toFixed(1)} ms`
  console.log(`\n${label} (median of ${runs} interleaved runs)`)
  console.log(`  append-only   N=${size}: ${ms(a1)}  10N: ${ms(a10)}  ratio 10N/N: ${(a10 / a1).toFixed(2)}`)
  console.log(`  replace-heavy N=${size}: ${ms(r1)}  10N: ${ms(r10)}  ratio 10N/N: ${(r10 / r1).toFixed(2)}`)
  console.log(`  replace-heavy / append-only:  at N ${(r1 / a1).toFixed(2)}  at 10N ${(r10 / a10).toFixed(2)}`)
  return { appendOnly: [a1, a10], replaceHeavy: [r1, r10] }
}

const size = Number(process.argv[2] ?? 20_000)
const runs = Number(process.argv[3] ?? 7)
const check = foldSurface(replaceHeavyLog(size))
console.log(`replace-heavy log of ${size} events: ${check.generation} replaces, final surface of ${check.nodes.length} nodes`)
measure('surface fold alone (foldSurface)', foldSurface, size, runs)
measure('surface operation (load + fold)', events => reference.surface({ events }), size, Math.max(1, Math.ceil(runs / 3)))
