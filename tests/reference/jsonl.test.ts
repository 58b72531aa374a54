import { describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { packChunkRuns, readStorageRecord, recordEvents, storedEventAt, storedEventCount } from '../../reference/chunk-rows.ts'
import { xxh64 } from '../check/support.ts'

const HEADER = '{"type":"session","version":0,"id":"s-1","createdAt":1,"delegationDepth":0}'
const line = (seq: number, type = 'todo/write', data: unknown = { todos: [] }): string => JSON.stringify({ type, seq, time: seq, data })
const turnEnd = (seq: number): string => line(seq, 'turn/end', { turn: 1, reason: { kind: 'completed' } })
const decode = (text: string): ReturnType<typeof reference.decodeJsonl> => reference.decodeJsonl({ text })
const bytesBefore = (text: string): number => new TextEncoder().encode(text).length

describe('JSONL raw torn tail (JSONL-11, JSONL-12)', () => {
  it('decodes a clean artifact with no tail', () => {
    expect(decode(`${HEADER}\n${line(0)}\n${line(1)}\n`)).toMatchObject({ ok: true, value: { events: [{ seq: 0 }, { seq: 1 }], tornTail: null } })
  })

  it('ignores an unterminated final line and reports where to truncate', () => {
    const kept = `${HEADER}\n${line(0)}\n`
    expect(decode(`${kept}{"type":"todo`)).toMatchObject({
      ok: true, value: { events: [{ seq: 0 }], tornTail: { line: 3, offset: bytesBefore(kept), reason: 'unterminated' } },
    })
  })

  it('drops everything from the first defect when no turn/end follows, the later good lines too', () => {
    const kept = `${HEADER}\n${line(0)}\n`
    const decoded = decode(`${kept}not json\n${line(1)}\n${line(2)}\n`)
    expect(decoded).toMatchObject({ ok: true, value: { events: [{ seq: 0 }], tornTail: { line: 3, offset: bytesBefore(kept), reason: 'JSONL_LINE_UNPARSABLE' } } })
  })

  it('reports committed damage when a later line holds a turn/end', () => {
    expect(decode(`${HEADER}\n${line(0)}\n\n${turnEnd(1)}\n`)).toMatchObject({ ok: false, error: { code: 'JSONL_LINE_UNPARSABLE', line: 3 } })
    expect(decode(`${HEADER}\n${line(0)}\n${line(5)}\nbad\n${turnEnd(6)}\n`)).toMatchObject({ ok: false, error: { code: 'JSONL_SEQ_GAP', line: 3 } })
  })

  it('says what the committed damage is and which line proves it committed (PROC-1: no vector compares it)', () => {
    const messageOf = (text: string): string => (decode(text) as { error: { message: string } }).error.message
    expect(messageOf(`${HEADER}\n${line(0)}\nnull,\n${turnEnd(1)}\n`)).toBe('line 3 is damaged (it is not one JSON text), and the turn/end on line 4 proves it was committed')
    expect(messageOf(`${HEADER}\n${line(0)}\n\n${turnEnd(1)}\n`)).toBe('line 3 is damaged (it is empty, which no writer writes (JSONL-8 writes no empty batch)), and the turn/end on line 4 proves it was committed')
    expect(messageOf(`${HEADER}\n${line(0)}\n \t\r\n${turnEnd(1)}\n`)).toBe('line 3 is damaged (it holds only whitespace), and the turn/end on line 4 proves it was committed')
    expect(messageOf(`${HEADER}\n${line(0)}\n${HEADER}\n${turnEnd(1)}\n`)).toBe('line 3 breaks the seq count (the next seq is 1, but it is a header line (type "session"), which only the first line may be), and the turn/end on line 4 proves it was committed')
    expect(messageOf(`${HEADER}\n${line(0)}\n{"type":"x"}\n${turnEnd(1)}\n`)).toBe('line 3 breaks the seq count (the next seq is 1, but its first event has no seq), and the turn/end on line 4 proves it was committed')
    expect(messageOf(`${HEADER}\n${line(0)}\n[]\n${turnEnd(1)}\n`)).toBe('line 3 breaks the seq count (the next seq is 1, but the line holds an array, not an event), and the turn/end on line 4 proves it was committed')
    expect(messageOf(`${HEADER}\n${line(0)}\n${line(5)}\nbad\n${turnEnd(6)}\n`)).toBe(`line 3 breaks the seq count (the next seq is 1, but its first event's seq is 5: 4 events before it are missing, or the line is out of place), and the turn/end on line 5 proves it was committed`)
    const shortDt = JSON.stringify({ type: 'text-chunks', seq0: 1, time0: 1, data: { turn: 1, step: 1, index: 0, dt: [], texts: ['a', 'b'] } })
    expect(messageOf(`${HEADER}\n${line(0)}\n${shortDt}\n${turnEnd(3)}\n`)).toMatch(/^line 3 is damaged \(malformed text-chunks row: .*dt.*\), and the turn\/end on line 4 proves it was committed$/)
  })

  it('rejects at once a seq gap on a line that itself holds a turn/end', () => {
    expect(decode(`${HEADER}\n${line(0)}\n${turnEnd(7)}\n`)).toMatchObject({ ok: false, error: { code: 'JSONL_SEQ_GAP', line: 3 } })
    // The message says which seq was due and which came (PROC-1: no vector compares it).
    const gap = decode(`${HEADER}\n${line(0)}\n${turnEnd(7)}\n`) as { error: { message: string } }
    expect(gap.error.message).toContain(`the next seq is 1, but its first event's seq is 7`)
    const seqHolding = (seq: string): string => (decode(`${HEADER}\n${line(0)}\n${turnEnd(1).replace('"seq":1', `"seq":${seq}`)}\n`) as { error: { message: string } }).error.message
    expect(seqHolding('"1"')).toContain(`the next seq is 1, but its first event's seq is the string "1"`)
    expect(seqHolding('1e400')).toContain(`the next seq is 1, but its first event's seq is a number beyond the range of a double`)
  })

  it('never looks for a turn/end in the unterminated tail', () => {
    expect(decode(`${HEADER}\nbad\n${turnEnd(0)}`)).toMatchObject({ ok: true, value: { events: [], tornTail: { line: 2, reason: 'JSONL_LINE_UNPARSABLE' } } })
  })

  it('treats null and arrays as seq gaps, and lets a stored -0 seq through to load', () => {
    expect(decode(`${HEADER}\nnull\n`)).toMatchObject({ ok: true, value: { events: [], tornTail: { reason: 'JSONL_SEQ_GAP' } } })
    const decoded = decode(`${HEADER}\n{"type":"todo/write","seq":-0,"time":1,"data":{}}\n`)
    expect(decoded.ok).toBe(true)
    const events = (decoded as { value: { events: unknown[] } }).value.events
    expect(reference.load({ events })).toMatchObject({ ok: false, error: { code: 'JSON_NEGATIVE_ZERO', seq: 0 } })
  })

  it('expands rows and rolls back a row with a gap', () => {
    const row = '{"type":"text-chunks","seq0":1,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[2,-1],"texts":["a","b","c"]}}'
    expect(decode(`${HEADER}\n${line(0)}\n${row}\n`)).toMatchObject({
      ok: true,
      value: { events: [{ seq: 0 }, { seq: 1, time: 5 }, { seq: 2, time: 7 }, { seq: 3, time: 6, data: { chunk: { type: 'text-delta', index: 0, text: 'c' } } }] },
    })
    expect(decode(`${HEADER}\n${row}\n`)).toMatchObject({ ok: true, value: { events: [], tornTail: { reason: 'JSONL_SEQ_GAP' } } })
  })
})

describe('JSONL header line (JSONL-6, JSONL-7)', () => {
  it('refuses a foreign version before anything else, and rejects a non-number version as damage', () => {
    expect(decode('{"type":"session","version":1}\n')).toMatchObject({ ok: false, error: { code: 'FORMAT_VERSION_NEWER', line: 1 } })
    expect(decode('{"version":-1}\n')).toMatchObject({ ok: false, error: { code: 'FORMAT_VERSION_OLDER' } })
    expect(decode('{"type":"session","version":"0","id":"s","createdAt":1,"delegationDepth":0}\n')).toMatchObject({ ok: false, error: { code: 'JSONL_HEADER_INVALID' } })
    expect(decode('[1]\n')).toMatchObject({ ok: false, error: { code: 'JSONL_HEADER_INVALID' } })
    expect(decode(HEADER)).toMatchObject({ ok: false, error: { code: 'JSONL_HEADER_INVALID', line: 1 } })
  })

  it('says which header member is wrong and what it holds (PROC-1: no vector compares it)', () => {
    const messageOf = (text: string): string => (decode(text) as { error: { message: string } }).error.message
    const header = (members: Record<string, unknown>): string => `${JSON.stringify({ type: 'session', version: 0, id: 's', createdAt: 1, delegationDepth: 0, ...members })}\n`
    const said = 'the first line is not a session header line: '
    expect(messageOf('"session"\n')).toBe(`${said}it must be an object, and it is the string "session"`)
    expect(messageOf('null\n')).toBe(`${said}it must be an object, and it is null`)
    expect(messageOf(header({ type: 'turn/start' }))).toBe(`${said}type must be "session", and it is the string "turn/start"`)
    expect(messageOf(header({ type: undefined }))).toBe(`${said}type must be "session", and it is absent`)
    expect(messageOf(header({ id: ['x'] }))).toBe(`${said}id must be a string, and it is an array`)
    expect(messageOf(header({ createdAt: -1 }))).toBe(`${said}createdAt must be a non-negative safe integer, and it is -1`)
    expect(messageOf(header({ createdAt: -0 }).replace('"createdAt":0', '"createdAt":-0'))).toBe(`${said}createdAt must be a non-negative safe integer, and it is -0`)
    expect(messageOf(header({ createdAt: 1 }).replace('"createdAt":1', '"createdAt":-1e400'))).toBe(`${said}createdAt must be a non-negative safe integer, and it is a number beyond the range of a double`)
    expect(messageOf(header({ delegationDepth: 0.5 }))).toBe(`${said}delegationDepth must be a non-negative safe integer, and it is 0.5`)
    expect(messageOf(header({ delegationDepth: { n: 1 } }))).toBe(`${said}delegationDepth must be a non-negative safe integer, and it is an object`)
    expect(messageOf(header({ origin: 'x'.repeat(50) }))).toBe(`${said}origin, when present, must be "subagent", and it is the string "${'x'.repeat(40)}…"`)
    expect(messageOf(header({ agentPreset: true }))).toBe(`${said}agentPreset, when present, must be a string, and it is true`)
  })

  it('requires delegationDepth, rejects retired members, keeps only header members', () => {
    expect(decode('{"type":"session","version":0,"id":"s","createdAt":1}\n')).toMatchObject({ ok: false, error: { code: 'JSONL_HEADER_INVALID' } })
    expect(decode('{"type":"session","id":"s","createdAt":1,"delegationDepth":0}\n')).toMatchObject({ ok: false, error: { message: 'the first line is not a session header line: version must be a number, and it is absent' } })
    expect(decode('{"type":"session","version":0,"id":7,"createdAt":1,"delegationDepth":0}\n')).toMatchObject({ ok: false, error: { message: 'the first line is not a session header line: id must be a string, and it is 7' } })
    // The message names the member, for the people reading check's report (PROC-1: no vector compares it).
    const missing = decode('{"type":"session","version":0,"id":"s","createdAt":1}\n') as { error: { message: string } }
    expect(missing.error.message).toContain('delegationDepth must be a non-negative safe integer, and it is absent')
    expect(decode('{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0,"sandboxMode":null}\n'))
      .toMatchObject({ ok: false, error: { code: 'JSONL_HEADER_RETIRED_FIELD', message: 'the header line carries sandboxMode, a retired member' } })
    expect(decode('{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0,"approvalPolicy":"x"}\n'))
      .toMatchObject({ ok: false, error: { code: 'JSONL_HEADER_RETIRED_FIELD', message: 'the header line carries approvalPolicy, a retired member' } })
    expect(decode('{"type":"session","version":0,"id":"s","createdAt":1,"cwd":null,"delegationDepth":0,"extra":1}\n'))
      .toEqual({ ok: true, value: { header: { version: 0, id: 's', createdAt: 1, cwd: null, delegationDepth: 0 }, events: [], tornTail: null } })
  })

  it('decodes bytes given as base64, replacing ill-formed UTF-8', () => {
    const bytes = Buffer.concat([Buffer.from(`${HEADER}\n{"type":"x","seq":0,"time":1,"data":"`), Buffer.from([0xff]), Buffer.from('"}\n')])
    expect(reference.decodeJsonl({ base64: bytes.toString('base64') })).toMatchObject({ ok: true, value: { events: [{ data: '\ufffd' }] } })
  })
})

describe('packed chunk rows (ROW-3, ROW-6)', () => {
  const chunk = (seq: number, text: string, extra: object = {}): unknown =>
    ({ type: 'assistant/chunk', seq, time: 100 + seq, data: { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text, ...extra } } })

  it('packs runs of three or more and decodes them back', () => {
    const events = [chunk(0, 'a'), chunk(1, 'b'), chunk(2, 'c'), chunk(3, 'd', { extra: 1 }), chunk(4, 'e'), chunk(5, 'f')]
    const records = packChunkRuns(events)
    expect(records).toHaveLength(4)
    const read = records.map(readStorageRecord)
    expect(read.flatMap(record => (record.ok ? recordEvents(record.events) : []))).toEqual(events)
    expect(read.map(record => record.ok && (record.events.row === undefined ? 'single' : 'row'))).toEqual(['row', 'single', 'single', 'single'])
  })

  it('builds any one member of a checked row on its own', () => {
    const read = readStorageRecord(packChunkRuns([chunk(7, 'a'), chunk(8, 'b'), chunk(9, 'c')])[0])
    if (!read.ok) throw new Error('the row was rejected')
    expect([storedEventCount(read.events), storedEventAt(read.events, 1), storedEventAt(read.events, 2)]).toEqual([3, chunk(8, 'b'), chunk(9, 'c')])
  })

  it('rejects a -0 in seq0 and a dt of the wrong length', () => {
    const row = (seq0: number, dt: number[]): unknown => ({ type: 'text-chunks', seq0, time0: 1, data: { turn: 1, step: 1, index: 0, dt, texts: ['a', 'b'] } })
    expect(readStorageRecord(row(-0, [1]))).toMatchObject({ ok: false, fault: { code: 'JSONL_ROW_INVALID' } })
    expect(readStorageRecord(row(0, []))).toMatchObject({ ok: false, fault: { code: 'JSONL_ROW_INVALID' } })
  })
})

// Fixtures made with the zstd command-line tool (zstd -3 --check), one frame per file.
const ZSTD = {
  header: 'KLUv/SRMNQIAMgQPFqA5Bz0t5NauTmk5fv/0mAjrGPTHxQrAYtDGrg9J6aLix9N30CvkF50RPp8g1WeQHfE5KW3tzeivZK0EAgA+o+hVmrxnmzI=',
  batch1: 'KLUv/SSplQMAsoYVGoDHGQPNuJpIf0TcK4TadBgxMBQSZmILqxsspzXj41vwrS5wPSNdKvBdTC6GJLn6BXCElMCWwUEsk6e1hDe4WrW+hGcB2Q/hhtTvVdQqgCnLjmdy2JsJAFMIYsPpo9ry1ZBXDKoSt6uBuNri1KoyQlJBzw==',
  batch2: 'KLUv/SRVbQIAAgURGICpLQY8GtJ+amHw2rgyIdJHqMQWpgQMAcVaa8xNwymG8I1KCqtbTRqJtsCt7rEDt8GdhewmuA+ZtlEToAix33kSuwoBADyCKgOC2ddV',
  gapBatch: 'KLUv/SRVbQIAAgURGICpLQY8GtJ+amHw2rgyIRpGrMQWpgQMAcVaa8xNwymG8I1KCqtbTRqJtsCt7rEDN8Gdhew2uA+ZtlEToAix33kSuwoBADyCKgNkAi4C',
}
const frames = (...names: (keyof typeof ZSTD)[]): Buffer => Buffer.concat(names.map(name => Buffer.from(ZSTD[name], 'base64')))
const decodeZstd = (bytes: Buffer): ReturnType<typeof reference.decodeJsonl> => reference.decodeJsonl({ base64: bytes.toString('base64'), encoding: 'zstd' })

describe('JSONL zstd encoding (JSONL-14, JSONL-15)', () => {
  it('decodes complete frames, rows included', () => {
    expect(decodeZstd(frames('header', 'batch1', 'batch2'))).toMatchObject({
      ok: true, value: { header: { id: 's-1' }, events: [{ seq: 0 }, { seq: 1 }, { seq: 2 }, { seq: 3 }, { seq: 4, type: 'turn/end' }], tornTail: null },
    })
  })

  it('tolerates a torn final frame at its start offset', () => {
    const whole = frames('header', 'batch1', 'batch2')
    const torn = whole.subarray(0, whole.length - 3)
    expect(decodeZstd(torn)).toMatchObject({ ok: true, value: { tornTail: { line: 4, offset: frames('header', 'batch1').length, reason: 'unterminated' } } })
  })

  it('reports a defect inside a complete frame as damage, even after the last turn/end', () => {
    expect(decodeZstd(frames('header', 'batch1', 'gapBatch'))).toMatchObject({
      ok: false, error: { code: 'JSONL_FRAME_INVALID', line: 4, message: `JSONL_SEQ_GAP on line 4, inside a complete frame: the next seq is 4, but its first event's seq is 9: 5 events before it are missing, or the line is out of place` },
    })
  })

  it('reports a checksum mismatch and a bad magic number without a line', () => {
    const damaged = frames('header', 'batch1', 'batch2')
    damaged.writeUInt8(damaged.readUInt8(damaged.length - 1) ^ 0xff, damaged.length - 1)
    const decoded = decodeZstd(damaged)
    expect(decoded).toMatchObject({ ok: false, error: { code: 'JSONL_FRAME_INVALID' } })
    expect((decoded as { error: { line?: number } }).error.line).toBeUndefined()
    expect(decodeZstd(Buffer.from('not zstd at all'))).toMatchObject({ ok: false, error: { code: 'JSONL_FRAME_INVALID' } })
    expect(decodeZstd(Buffer.alloc(0))).toMatchObject({ ok: false, error: { code: 'JSONL_HEADER_INVALID' } })
  })

  it('computes XXH64 as the reference vectors say', () => {
    expect(xxh64(new Uint8Array())).toBe(0xef46db3751d8e999n)
    expect(xxh64(new TextEncoder().encode('abc'))).toBe(0x44bc2cf5ad770999n)
  })
})

describe('writing JSONL and naming artifacts (JSONL-1, JSONL-2, JSONL-5, JSONL-8)', () => {
  it('derives the artifact path from the id and cwd', () => {
    expect(reference.artifactPath({ sessionId: 's-1', cwd: '/home/ana/my proj' })).toEqual({ ok: true, value: { path: '--home-ana-my~0020proj--/s-1/session.jsonl' } })
    expect(reference.artifactPath({ sessionId: 'a/b', cwd: 'C:\\work\\x', encoding: 'zstd' })).toEqual({ ok: true, value: { path: '--C-work-x--/a~002Fb/session.jsonl.zstd' } })
    expect(reference.artifactPath({ sessionId: '..' })).toEqual({ ok: true, value: { path: '_no-cwd/~002E~002E/session.jsonl' } })
    expect(reference.artifactPath({ sessionId: '' })).toMatchObject({ ok: false })
  })

  it('writes the header line in member order with delegationDepth, then packed batches', () => {
    const chunk = (seq: number): unknown => ({ type: 'assistant/chunk', seq, time: seq, data: { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text: String(seq) } } })
    const encoded = reference.encodeJsonl({ header: { cwd: '/w', id: 's', version: 0, createdAt: 5 }, batches: [[chunk(0), chunk(1)], [chunk(2), chunk(3), chunk(4)]] })
    expect(encoded.ok).toBe(true)
    const text = (encoded as { value: { text: string } }).value.text
    expect(text.split('\n')[0]).toBe('{"type":"session","version":0,"id":"s","createdAt":5,"cwd":"/w","delegationDepth":0}')
    expect(text.split('\n')).toHaveLength(5)
    expect(decode(text)).toMatchObject({ ok: true, value: { events: [chunk(0), chunk(1), chunk(2), chunk(3), chunk(4)], tornTail: null } })
  })
})
