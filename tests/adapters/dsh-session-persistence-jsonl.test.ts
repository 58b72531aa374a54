// The adapter for upstream's JSONL storage backend: it runs the jsonl profile through the real backend
// (on Node 20 behind a node:zlib without zstd), and its table of the backend's messages is well formed.
import { afterAll, describe, expect, it } from 'vitest'
import { adapterByName } from '../../conformance/adapters/registry.ts'
import { NODE_HAS_ZSTD } from '../../conformance/adapters/dsh-session-persistence-jsonl/backend.ts'
import { BACKEND_RULES, backendRejection, NO_PATH_RULE } from '../../conformance/adapters/dsh-session-persistence-jsonl/rejections.ts'
import { ERROR_CODES } from '../../reference/result.ts'

const HEADER = '{"type":"session","version":0,"id":"s-1","createdAt":1,"cwd":"/w","delegationDepth":0}\n'
const TITLE = (seq: number): string => `{"type":"session/title","seq":${seq},"time":1,"data":{"title":"t"}}\n`
const TURN_END = (seq: number): string => `{"type":"turn/end","seq":${seq},"time":1,"data":{"turn":1,"reason":"completed"}}\n`
// A packed row whose `dt` does not have one entry fewer than its texts (ROW-3).
const BAD_ROW = '{"type":"text-chunks","seq0":1,"time0":1,"data":{"turn":1,"step":1,"index":0,"dt":[],"texts":["a","b"]}}\n'

describe('dsh-session-persistence-jsonl@0.1.0-rc.8', () => {
  const adapter = adapterByName('dsh-session-persistence-jsonl@0.1.0-rc.8')
  // Removes the adapter's storage roots.
  afterAll(async () => (await adapter).close?.())

  it('names itself and declares the jsonl operations alone', async () => {
    const { meta, operations } = await adapter
    expect(meta).toMatchObject({ name: 'dsh-session-persistence-jsonl@0.1.0-rc.8', version: '0.1.0-rc.8', profiles: ['jsonl'] })
    expect(Object.keys(operations).sort()).toEqual(['artifactPath', 'decodeJsonl', 'encodeJsonl'])
  })

  it('reads an artifact back through the backend: its header as the backend decodes it, and its events', async () => {
    const { operations } = await adapter
    expect(await operations.decodeJsonl!({ text: HEADER + TITLE(0) })).toEqual({
      ok: true,
      value: { header: { version: 0, id: 's-1', createdAt: 1, cwd: '/w', delegationDepth: 0 }, events: [JSON.parse(TITLE(0))], tornTail: null },
    })
  })

  it('reads the torn tail\'s line and reason off the artifact at the offset the backend truncates to', async () => {
    const { operations } = await adapter
    const offset = Buffer.byteLength(HEADER + TITLE(0))
    const torn = async (tail: string): Promise<unknown> => ((await operations.decodeJsonl!({ text: HEADER + TITLE(0) + tail })) as { value: { tornTail: unknown } }).value.tornTail
    expect(await torn('{"type":')).toEqual({ line: 3, offset, reason: 'unterminated' })
    expect(await torn('{"type":\n')).toEqual({ line: 3, offset, reason: 'JSONL_LINE_UNPARSABLE' })
    expect(await torn(BAD_ROW)).toEqual({ line: 3, offset, reason: 'JSONL_ROW_INVALID' })
    expect(await torn(TITLE(5))).toEqual({ line: 3, offset, reason: 'JSONL_SEQ_GAP' })
    expect(await torn('\n')).toEqual({ line: 3, offset, reason: 'JSONL_LINE_UNPARSABLE' })
  })

  it('names the backend\'s "unparsable committed event" by what the line is, on the artifact\'s line', async () => {
    const { operations } = await adapter
    expect(await operations.decodeJsonl!({ text: HEADER + TITLE(0) + '{"type":\n' + TURN_END(1) })).toMatchObject({ ok: false, error: { code: 'JSONL_LINE_UNPARSABLE', line: 3 } })
    expect(await operations.decodeJsonl!({ text: HEADER + TITLE(0) + BAD_ROW + TURN_END(1) })).toMatchObject({ ok: false, error: { code: 'JSONL_ROW_INVALID', line: 3 } })
    expect(await operations.decodeJsonl!({ text: HEADER + TITLE(0) + TITLE(2) + TURN_END(3) })).toMatchObject({ ok: false, error: { code: 'JSONL_SEQ_GAP', line: 3 } })
    expect(await operations.decodeJsonl!({ text: '{"type":"session","version":1,"id":"s"}\n' })).toMatchObject({ ok: false, error: { code: 'FORMAT_VERSION_NEWER', line: 1 } })
    expect(await operations.decodeJsonl!({ text: 'no header' })).toMatchObject({ ok: false, error: { code: 'JSONL_HEADER_INVALID', line: 1 } })
    expect(await operations.decodeJsonl!({ text: '{"type":"session","version":0,"id":5,"createdAt":1,"delegationDepth":0}\n' })).toMatchObject({ ok: false, error: { code: 'JSONL_HEADER_INVALID', line: 1 } })
  })

  it('answers what the backend cannot take as unsupported: an accepted header with no path, a log with no event', async () => {
    const { operations } = await adapter
    expect(await operations.decodeJsonl!({ text: HEADER.replace('"s-1"', '""') })).toMatchObject({ ok: false, unsupported: expect.stringContaining('cannot encode an empty path segment') })
    expect(await operations.decodeJsonl!({ text: HEADER.replace('"s-1"', `"${'x'.repeat(300)}"`) })).toMatchObject({ ok: false, unsupported: expect.stringContaining('ENAMETOOLONG') })
    expect(await operations.encodeJsonl!({ header: { version: 0, id: 's', createdAt: 1 }, batches: [[], []] })).toMatchObject({ ok: false, unsupported: expect.stringContaining('no event') })
  })

  it('gives the backend\'s own verdict on an artifact whose header derives no path, when the backend rejects it', async () => {
    const { operations } = await adapter
    const noPath = HEADER.replace('"/w"', '""')
    expect(await operations.decodeJsonl!({ text: noPath + TITLE(0) + TITLE(2) + TURN_END(3) })).toMatchObject({ ok: false, error: { code: 'JSONL_SEQ_GAP', line: 3 } })
    expect(await operations.decodeJsonl!({ text: '{"type":"session","version":1,"id":""}\n' })).toMatchObject({ ok: false, error: { code: 'FORMAT_VERSION_NEWER', line: 1 } })
  })

  it('runs calls one after another: two artifacts of one session id, read at once, each give their own events', async () => {
    const { operations } = await adapter
    const [one, two] = await Promise.all([operations.decodeJsonl!({ text: HEADER + TITLE(0) }), operations.decodeJsonl!({ text: HEADER })])
    expect([one, two].map(result => (result as { value: { events: unknown[] } }).value.events.length)).toEqual([1, 0])
  })

  it.runIf(!NODE_HAS_ZSTD)('answers a zstd artifact as unsupported where node:zlib has no zstd (Node 20)', async () => {
    const { operations } = await adapter
    expect(await operations.decodeJsonl!({ encoding: 'zstd', base64: '' })).toEqual({ ok: false, unsupported: `the backend decodes zstd frames with node:zlib, which has no zstd on Node ${process.version}` })
  })

  it.runIf(NODE_HAS_ZSTD)('reads zstd frames through the backend where node:zlib has zstd: a torn last frame starts the tail', async () => {
    const { operations } = await adapter
    const { zstdCompressSync } = await import('node:zlib') as unknown as { zstdCompressSync(text: string): Buffer }
    const complete = Buffer.concat([zstdCompressSync(HEADER), zstdCompressSync(TITLE(0))])
    const torn = zstdCompressSync(TITLE(1)).subarray(0, 6)
    expect(await operations.decodeJsonl!({ encoding: 'zstd', base64: Buffer.concat([complete, torn]).toString('base64') })).toEqual({
      ok: true,
      value: { header: { version: 0, id: 's-1', createdAt: 1, cwd: '/w', delegationDepth: 0 }, events: [JSON.parse(TITLE(0))], tornTail: { line: 3, offset: complete.length, reason: 'unterminated' } },
    })
  })

  it('writes batches with the backend\'s writer: the header line, then each batch, chunk runs packed', async () => {
    const { operations } = await adapter
    const chunk = (seq: number, text: string): unknown => ({ type: 'assistant/chunk', seq, time: 10 + seq, data: { turn: 1, step: 1, chunk: { type: 'text-delta', index: 0, text } } })
    const result = await operations.encodeJsonl!({ header: { version: 0, id: 's', createdAt: 1 }, batches: [[chunk(0, 'a'), chunk(1, 'b'), chunk(2, 'c')], [], [JSON.parse(TITLE(3))]] })
    expect(result).toEqual({
      ok: true,
      value: { text: '{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0}\n{"type":"text-chunks","seq0":0,"time0":10,"data":{"turn":1,"step":1,"index":0,"dt":[1,1],"texts":["a","b","c"]}}\n' + TITLE(3) },
    })
  })

  it('derives artifact paths with the backend\'s locate, and none from an empty id', async () => {
    const { operations } = await adapter
    expect(await operations.artifactPath!({ sessionId: 'a b', cwd: '/home/x', encoding: 'zstd' })).toEqual({ ok: true, value: { path: '--home-x--/a~0020b/session.jsonl.zstd' } })
    expect(await operations.artifactPath!({ sessionId: 's' })).toEqual({ ok: true, value: { path: '_no-cwd/s/session.jsonl' } })
    expect(await operations.artifactPath!({ sessionId: '' })).toMatchObject({ ok: false, error: { code: 'HEADER_ID_MISMATCH' } })
  })
})

describe('the JSONL backend\'s message table', () => {
  const codes = new Set<string>(ERROR_CODES)

  it('catches each example with its own rule, so no rule is shadowed by an earlier one', () => {
    for (const rule of BACKEND_RULES) expect(BACKEND_RULES.find(candidate => candidate.pattern.test(rule.example)), rule.example).toBe(rule)
  })

  it('gives each rule\'s code, and its line: 1 for the header, the scanner\'s event line plus one, none for a frame', () => {
    for (const rule of [...BACKEND_RULES, NO_PATH_RULE].filter(rule => rule.code !== 'LINE')) {
      const line = { header: 1, event: 3, none: undefined }[rule.line]
      const { error } = backendRejection(new Error(rule.example), undefined, () => [], [...BACKEND_RULES, NO_PATH_RULE]) as { error: { code: string; line?: number } }
      expect([error.code, error.line], rule.example).toEqual([rule.code, line])
    }
  })

  it('names the "unparsable" line only from text that holds it whole, and only as a line or row fault', () => {
    const unparsable = new Error('corrupt session log: unparsable committed event at line 1')
    const code = (text: string): unknown => (backendRejection(unparsable, Buffer.from(text), () => []) as { error: { code: string } }).error.code
    expect(code(`${HEADER}{"type":\n`)).toBe('JSONL_LINE_UNPARSABLE')
    expect(code(`${HEADER}{"type":`)).toBe('UNMAPPED')
    expect(code(HEADER)).toBe('UNMAPPED')
    expect(code(HEADER + TITLE(0))).toBe('UNMAPPED')
  })

  it('names only codes of spec/errors.md, but for the line the adapter names itself', () => {
    for (const rule of BACKEND_RULES.filter(rule => rule.code !== 'LINE')) expect(codes.has(rule.code), rule.code).toBe(true)
  })

  it('turns an unknown message into UNMAPPED with the text, never a code', () => {
    expect(backendRejection(new TypeError('boom'), undefined, () => [])).toEqual({ ok: false, error: { code: 'UNMAPPED', message: expect.stringContaining('TypeError: boom') } })
  })
})
