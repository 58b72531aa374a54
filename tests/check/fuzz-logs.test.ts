// `check` against the reference pipeline (decodeJsonl -> load -> relations) over the differential
// fuzzer's logs (conformance/fuzz/draw.ts): valid ones, and ones broken by each of the mutation
// operators (some twice, some rewritten into older shapes, some with a header that is no object), stored
// as a raw artifact whose chunk runs are packed into rows, and as zstd frames of a few lines each (JSONL-14
// reads a bad line inside a complete frame as corruption, where the raw reader tears the tail there). The
// equivalence tests damage a log's text;
// these break the rules one event at a time, each as the spec names it, so they reach the streaming
// load's checks of every rule the operators cover.
import { afterAll, describe, expect, it } from 'vitest'
import { drawRun, type DrawnRun } from '../../conformance/fuzz/draw.ts'
import { packChunkRuns } from '../../reference/chunk-rows.ts'
import { isRecord } from '../../reference/lossless-json.ts'
import { check, pipelineOutcome, tempFolder, zstdArtifact } from './support.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

/**
 * A run's log as the lines of an artifact: the header line, then the events with chunk runs packed.
 * JSON.stringify writes what JSON text cannot carry its own way (`-0` as 0, `undefined` left out or as
 * null, a non-finite number as null); undefined when it cannot write a value at all (a bigint).
 */
function artifactLinesOf(run: DrawnRun): string[] | undefined {
  const header = isRecord(run.header) ? { type: 'session', ...run.header } : run.header
  try {
    return [header, ...packChunkRuns(run.events)].map(line => JSON.stringify(line) ?? 'undefined')
  } catch {
    return undefined
  }
}

/** The first `count` runs of `seed` that JSON text can carry, each with its artifact's lines. */
function storedRuns(seed: number, count: number, maxEvents: number): { run: DrawnRun; lines: string[] }[] {
  const stored: { run: DrawnRun; lines: string[] }[] = []
  for (let index = 0; stored.length < count; index += 1) {
    const run = drawRun(seed, index, maxEvents)
    const lines = artifactLinesOf(run)
    if (lines !== undefined) stored.push({ run, lines })
  }
  return stored
}

function rawArtifact(lines: readonly string[]): Buffer {
  return Buffer.from(`${lines.join('\n')}\n`)
}

function runLabel(run: DrawnRun): string {
  return `run ${run.index} of seed 17: ${run.mutation ?? 'valid'}${run.olderShapes === true ? ', older shapes' : ''}`
}

describe("check over the fuzzer's logs agrees with the reference pipeline", () => {
  const runs = storedRuns(17, 400, 40)

  it('draws valid and broken logs whose outcomes are of many kinds', () => {
    const outcomes = runs.map(({ lines }) => pipelineOutcome(rawArtifact(lines), 'raw'))
    const codes = new Set(outcomes.flatMap(outcome => (outcome.verdict === 'rejected' ? [outcome.code] : [])))
    expect(outcomes.filter(outcome => outcome.verdict === 'accepted').length).toBeGreaterThan(40)
    expect(outcomes.some(outcome => outcome.verdict === 'accepted' && outcome.relations.length > 0)).toBe(true)
    expect(codes.size).toBeGreaterThanOrEqual(30)
  })

  it('on each log, to the code, line, seq and every relation violation', () => {
    for (const { run, lines } of runs) {
      const bytes = rawArtifact(lines)
      expect(check(folder.write(`run${run.index}.jsonl`, bytes)).outcome, runLabel(run)).toEqual(pipelineOutcome(bytes, 'raw'))
    }
  })

  it('on each log stored as zstd frames of raw blocks', () => {
    for (const { run, lines } of runs.slice(0, 150)) {
      const bytes = zstdArtifact(lines, [1, 4, 2, 9])
      expect(check(folder.write(`run${run.index}.jsonl.zstd`, bytes)).outcome, runLabel(run)).toEqual(pipelineOutcome(bytes, 'zstd'))
    }
  })
})
