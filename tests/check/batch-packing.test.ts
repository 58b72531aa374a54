// `check --writer`, ROW-6 over each written batch: a batch that holds a packed row comes from a writer
// that packs, and such a writer packs every run of three or more chunk events that continue each other
// into one row, whole. Expectations come from ROW-5's packable events, ROW-6's "continues" and its
// batch-by-batch walk: a run written one event per line, a row that goes on with the run before it, and
// an event on its own that goes on with the row before it each depart from it. Only a zstd artifact
// shows its batches (a frame each, JSONL-13).
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { packChunkRuns, readStorageRecord, recordEvents, type StoredEvents } from '../../reference/chunk-rows.ts'
import { BatchPacking } from '../../conformance/check/batch-packing.ts'
import { ArtifactCheck } from '../../conformance/check/artifact.ts'
import { memoryByteSource } from '../../conformance/check/byte-source.ts'
import { checkZstdArtifact } from '../../conformance/check/zstd-reader.ts'
import { DEFAULT_MAX_LINE_BYTES } from '../../conformance/check/options.ts'
import { batchCutsArbitrary, generatedLogArbitrary, splitIntoBatches } from '../../conformance/generators/index.ts'
import { accepted, runs } from '../properties/support.ts'
import { check, rawFrame, tempFolder, zstdArtifact } from './support.ts'
import { text, turnLines } from './small-logs.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

interface ChunkShape {
  time?: number
  turn?: number
  index?: number
  step?: number
  kind?: 'text-delta' | 'reasoning-delta'
}

/** A text or reasoning delta, of turn 1 and step 1 unless given, written verbatim; its time is its seq unless given. */
function chunk(seq: number, { time = seq, turn = 1, index = 0, step = 1, kind = 'text-delta' }: ChunkShape = {}): string {
  return JSON.stringify({ type: 'assistant/chunk', seq, time, data: { turn, step, chunk: { type: kind, index, text: 't' } } })
}

/** A text row of `count` members from `seq0`, a time step of 1 between them. */
function textRow(seq0: number, count: number, { time = seq0, index = 0 }: { time?: number; index?: number } = {}): string {
  return JSON.stringify({ type: 'text-chunks', seq0, time0: time, data: { turn: 1, step: 1, index, dt: Array(count - 1).fill(1), texts: Array(count).fill('t') } })
}

function toolDelta(seq: number, name?: string): string {
  return JSON.stringify({ type: 'assistant/chunk', seq, time: seq, data: { turn: 1, step: 1, chunk: { type: 'tool-call-delta', index: 0, id: 'c1', ...(name === undefined ? {} : { name }), argumentsDelta: '{' } } })
}

function toolRow(seq0: number, count: number, name?: string): string {
  return JSON.stringify({ type: 'tool-call-chunks', seq0, time0: seq0, data: { turn: 1, step: 1, index: 0, dt: Array(count - 1).fill(1), id: 'c1', ...(name === undefined ? {} : { name }), args: Array(count).fill('{') } })
}

/** Feeds `batches` of record lines, numbered from line 5, to one BatchPacking; what each batch's end returns. */
function departures(...batches: string[][]): ({ line: number; why: string } | undefined)[] {
  const packing = new BatchPacking()
  let line = 5
  return batches.map(batch => {
    for (const record of batch) {
      const read = readStorageRecord(JSON.parse(record))
      if (!read.ok) throw new Error(`not a record the reader accepts: ${record}`)
      packing.record(read.events, line++)
    }
    return packing.end()
  })
}

const departureOf = (batch: string[]): { line: number; why: string } | undefined => departures(batch)[0]

describe('ROW-6 over one batch (BatchPacking)', () => {
  it('passes a batch packed as ROW-6 packs it, and any batch without a row', () => {
    expect(departureOf([textRow(3, 3)])).toBeUndefined()
    // Runs of one and two stay verbatim.
    expect(departureOf([chunk(3), chunk(4, { index: 1 }), textRow(5, 3), chunk(8, { index: 1 }), chunk(9, { index: 1 })])).toBeUndefined()
    // No row: the writer may not pack at all.
    expect(departureOf([chunk(3), chunk(4), chunk(5), chunk(6)])).toBeUndefined()
  })

  it('finds a run of three written one event per line in a batch that packs, wherever the row is', () => {
    const why = 'lines 5 to 7 write one event per line a run of 3 chunk events, which a writer that packs writes as one row'
    expect(departureOf([chunk(3), chunk(4), chunk(5), '{"type":"step/end","seq":6,"time":6,"data":{"turn":1,"step":1}}', textRow(7, 3, { index: 1 })])).toEqual({ line: 7, why })
    expect(departureOf([textRow(0, 3), chunk(3, { index: 1 }), chunk(4, { index: 1 }), chunk(5, { index: 1 })])).toEqual({ line: 8, why: 'lines 6 to 8 write one event per line a run of 3 chunk events, which a writer that packs writes as one row' })
  })

  it('finds a run split: an event on its own after its row, a row after its run\'s first events, two rows of one run', () => {
    expect(departureOf([textRow(3, 3), chunk(6)])).toEqual({ line: 6, why: 'line 6 writes on its own a chunk event that goes on with the row on line 5, which a writer that packs writes into that row' })
    expect(departureOf([chunk(3), textRow(4, 3)])).toEqual({ line: 6, why: 'the row on line 6 goes on with the run written one event per line from line 5, which a writer that packs writes whole in one row' })
    expect(departureOf([textRow(3, 3), textRow(6, 4)])).toEqual({ line: 6, why: 'the row on line 6 goes on with the run in the row on line 5, which a writer that packs writes whole in one row' })
    // The first departure is the one kept.
    expect(departureOf([chunk(2), textRow(3, 3), chunk(6), chunk(7)])?.line).toBe(6)
  })

  it('follows ROW-6\'s "continues": seq, kind, index, step, a safe time gap', () => {
    for (const next of [chunk(7), chunk(6, { index: 1 }), chunk(6, { turn: 2 }), chunk(6, { step: 2 }), chunk(6, { kind: 'reasoning-delta' })]) {
      expect(departureOf([textRow(3, 3), next]), next).toBeUndefined()
    }
    const least = -Number.MAX_SAFE_INTEGER
    // The row's last member is 2 after the least safe time; the greatest lies further from it than a safe integer.
    expect(departureOf([textRow(3, 3, { time: least }), chunk(6, { time: Number.MAX_SAFE_INTEGER })])).toBeUndefined()
    expect(departureOf([textRow(3, 3, { time: least }), chunk(6, { time: 0 })])?.line).toBe(6)
  })

  it('follows it for tool-call deltas: the same id, and a name in both or in neither', () => {
    expect(departureOf([toolRow(3, 3, 'bash'), toolDelta(6, 'bash')])?.line).toBe(6)
    expect(departureOf([toolRow(3, 3), toolDelta(6)])?.line).toBe(6)
    expect(departureOf([toolRow(3, 3, 'bash'), toolDelta(6)])).toBeUndefined()
    expect(departureOf([toolRow(3, 3), toolDelta(6, 'bash')])).toBeUndefined()
    expect(departureOf([toolRow(3, 3, 'bash'), toolDelta(6, 'sh')])).toBeUndefined()
    expect(departureOf([toolRow(3, 3), toolDelta(6).replace('"c1"', '"c2"')])).toBeUndefined()
  })

  it('lets an event ROW-5 does not pack close the run', () => {
    const withExtra = JSON.stringify({ type: 'assistant/chunk', seq: 6, time: 6, data: { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text: 't', extra: 1 } } })
    expect(departureOf([textRow(3, 3), withExtra])).toBeUndefined()
    expect(departureOf([textRow(3, 3), chunk(6).replace('"seq"', '"ignorable":true,"seq"')])).toBeUndefined()
    // In a log the event in between takes a seq, which breaks the chain anyway; a repeated seq shows the rule alone.
    expect(departureOf([textRow(3, 3), withExtra, chunk(6)])).toBeUndefined()
    expect(departureOf([textRow(3, 3), '{"type":"step/end","seq":6,"time":6,"data":{"turn":1,"step":1}}', chunk(6)])).toBeUndefined()
  })

  it('judges each batch alone: a run may end with one batch and go on in the next', () => {
    expect(departures([textRow(3, 3)], [textRow(6, 3)], [chunk(9)], [chunk(10), chunk(11), chunk(12)], [textRow(13, 3)])).toEqual(Array(5).fill(undefined))
    // A departure in a batch without a row is forgotten at its end, not carried to the next batch's row.
    expect(departures([chunk(3), chunk(4), chunk(5)], [textRow(6, 3, { index: 1 })])).toEqual([undefined, undefined])
    expect(departures([textRow(3, 3), chunk(6)], [textRow(7, 3)])).toEqual([{ line: 6, why: expect.stringMatching(/^line 6 /) as unknown }, undefined])
  })
})

/** A turn whose step streams text deltas, as `records` writes them (line 5 on), then ends from seq `next`. */
function streamedTurn(records: string[], next: number): string[] {
  const close = turnLines().slice(4).map((line, k) => line.replace(/"seq":\d+,"time":\d+/, `"seq":${next + k},"time":${next + k}`).replace('"id":"a3"', `"id":"a${next}"`))
  return [...turnLines().slice(0, 4), ...records, ...close]
}

const packingCodes = (file: string): (string | number | undefined)[][] =>
  check(file, { writer: true }).diagnostics.filter(found => found.code.startsWith('WRITER_')).map(found => [found.code, found.requirement, found.line])

/** Where the frame after the header's and the batches of `batchSizes` starts, in zstdArtifact's layout of `lines`. */
function frameByte(lines: string[], batchSizes: number[]): number {
  let at = 1
  let byte = rawFrame(Buffer.from(`${lines[0]}\n`)).length
  for (const size of batchSizes) {
    byte += rawFrame(Buffer.from(`${lines.slice(at, at + size).join('\n')}\n`)).length
    at += size
  }
  return byte
}

describe('check --writer: how each zstd frame\'s batch is packed (ROW-6)', () => {
  const lines = streamedTurn([textRow(3, 3), chunk(6), chunk(7)], 8)

  it('reports a batch packed otherwise than ROW-6 packs it as an error at the line that departs', () => {
    const file = folder.write('split-run.jsonl.zstd', zstdArtifact(lines, [3, 6]))
    expect(packingCodes(file)).toEqual([['WRITER_PACKING', 'ROW-6', 6]])
    const report = check(file, { writer: true })
    expect(report.status).toBe('invalid')
    expect(report.outcome).toMatchObject({ verdict: 'accepted', events: 11, relations: [] })
    expect(report.diagnostics[0]?.message).toBe(`the frame at byte ${frameByte(lines, [3])} holds a batch that packs chunk runs, but not as ROW-6 packs them: line 6 writes on its own a chunk event that goes on with the row on line 5, which a writer that packs writes into that row`)
    expect(check(file).status).toBe('valid')
  })

  it('passes the same records when a frame ends after the row, and says nothing of a raw artifact, whose batches do not show', () => {
    expect(packingCodes(folder.write('row-then-batch.jsonl.zstd', zstdArtifact(lines, [3, 1, 5])))).toEqual([])
    expect(packingCodes(folder.write('split-run.jsonl', text(lines)))).toEqual([])
  })

  it('judges a torn final frame\'s batch as far as it was written', () => {
    const whole = zstdArtifact(lines, [3, 6])
    // Without its content checksum the last frame is torn; its blocks are all there (JSONL-15).
    const report = check(folder.write('torn-split-run.jsonl.zstd', whole.subarray(0, whole.length - 4)), { writer: true })
    expect(report.outcome).toMatchObject({ verdict: 'accepted', tornTail: { line: 5, reason: 'unterminated' } })
    expect(report.diagnostics.filter(found => found.code.startsWith('WRITER_')).map(found => [found.code, found.line])).toEqual([['WRITER_PACKING', 6]])
  })

  it('counts the frames that depart, and shows the first', () => {
    const twice = streamedTurn([textRow(3, 3), chunk(6), textRow(7, 3, { index: 1 }), chunk(10, { index: 1 })], 11)
    const report = check(folder.write('two-departures.jsonl.zstd', zstdArtifact(twice, [3, 2, 5])), { writer: true })
    expect(report.diagnostics.map(found => [found.code, found.line, found.message])).toEqual([
      ['WRITER_PACKING', 6, `2 frames hold batches that pack chunk runs, but not as ROW-6 packs them, the first at byte ${frameByte(twice, [3])}: in the first, line 6 writes on its own a chunk event that goes on with the row on line 5, which a writer that packs writes into that row`],
    ])
  })
})

describe('check --writer over what the reference writes, a zstd frame per batch', () => {
  it('finds no departure from ROW-6 in encodeJsonl\'s packing, batch by batch, and finds a row cut short', () => {
    let cut = 0
    const logWithBatches = generatedLogArbitrary({ maxSize: 60 }).chain(log => batchCutsArbitrary(log.events.length).map(cuts => ({ log, cuts })))
    fc.assert(fc.property(logWithBatches, ({ log, cuts }) => {
      // The header line, then each batch's records, as the writer writes that batch alone.
      const linesOf = (batch: unknown[]): string[] => accepted(reference.encodeJsonl({ header: log.header, batches: [batch] }), 'encodeJsonl').text.split('\n').slice(0, -1)
      const header = linesOf([])[0] as string
      const records = splitIntoBatches(log.events, cuts).map(batch => linesOf(batch).slice(1))
      const artifact = (batches: string[][]): Uint8Array => zstdArtifact([header, ...batches.flat()], batches.map(batch => batch.length))
      const written = checkZstdArtifact(memoryByteSource(artifact(records)), writerCheck())
      expect(written.decodeError).toBeUndefined()
      expect(written.load).toBeDefined()
      expect(written.load?.fault).toBeUndefined()
      expect(written.writerFacts.packing).toBeUndefined()
      // A row of four or more written as a row of all but its last member, and that member on its own.
      const flat = records.flat()
      const at = flat.findIndex(record => (packedRow(record)?.row?.members.length ?? 0) >= 4)
      if (at === -1) return
      cut += 1
      const members = recordEvents(packedRow(flat[at] as string) as StoredEvents)
      const shorter = [...packChunkRuns(members.slice(0, -1)), members.at(-1)].map(record => JSON.stringify(record))
      let before = 0
      const changed = records.map(batch => {
        const here = at - before
        before += batch.length
        return here >= 0 && here < batch.length ? [...batch.slice(0, here), ...shorter, ...batch.slice(here + 1)] : batch
      })
      expect(checkZstdArtifact(memoryByteSource(artifact(changed)), writerCheck()).writerFacts.packing).toMatchObject({ line: at + 3, count: 1 })
    }), runs(100))
    expect(cut).toBeGreaterThan(0)
  })
})

/** The events of a record line that is a packed row; undefined for any other line. */
function packedRow(record: string): StoredEvents | undefined {
  const read = readStorageRecord(JSON.parse(record))
  return read.ok && read.events.row !== undefined ? read.events : undefined
}

const writerCheck = (): ArtifactCheck => new ArtifactCheck({ vocabulary: 'v0-pinned', maxLineBytes: DEFAULT_MAX_LINE_BYTES, writer: true })
