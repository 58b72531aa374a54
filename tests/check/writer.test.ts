// `check --writer`: the rules a writer keeps and a reader forgives (JSONL-5, JSONL-8, JSONL-13, JSONL-14,
// JSON-12, ROW-6, ROW-7). What the reference's own writer writes passes them; each way of breaking one is
// found at its line (or frame), by its rule, and only with --writer. Expectations come from the rules:
// JSONL-5's member list and order, the text ECMAScript JSON.stringify writes, JSON-12's "at most one
// member per name", ROW-7's member order, and a zstd frame per batch, each with its checksum and a
// window of at most 8 MiB.
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { reference } from '../../reference/index.ts'
import { ArtifactCheck, type WriterFacts } from '../../conformance/check/artifact.ts'
import { checkRawArtifact, memoryChunks } from '../../conformance/check/raw-reader.ts'
import { DEFAULT_MAX_LINE_BYTES, parseCheckOptions } from '../../conformance/check/options.ts'
import { canonicalText, duplicateMember, firstDifference, headerMembersFault, lineFormFault, rowOrderFault, shortRowFault, stringifiedText } from '../../conformance/check/writer-rules.ts'
import { batchCutsArbitrary, generatedLogArbitrary, splitIntoBatches } from '../../conformance/generators/index.ts'
import { accepted, runs } from '../properties/support.ts'
import { check, pipelineOutcome, rawFrame, tempFolder, zstdArtifact } from './support.ts'
import { HEADER, runChild, text, turnLines } from './small-logs.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

const corpusDir = fileURLToPath(new URL('../../../shared/corpus/upstream-rc8', import.meta.url))
const corpusPresent = existsSync(corpusDir)

/** The writer facts of a raw artifact in memory, as `check --writer` gathers them. */
function writerFactsOf(artifact: string): WriterFacts {
  const bytes = new TextEncoder().encode(artifact)
  return checkRawArtifact(memoryChunks(bytes), new ArtifactCheck({ vocabulary: 'v0-pinned', maxLineBytes: DEFAULT_MAX_LINE_BYTES, writer: true }), true).writerFacts
}

const writerCodes = (file: string, writer = true): string[][] =>
  check(file, { writer }).diagnostics.filter(found => found.code.startsWith('WRITER_')).map(found => [found.severity, found.code, found.requirement ?? '', String(found.line)])

describe('duplicate member names (JSON-12)', () => {
  it('finds the first name an object writes twice, and the path of that object', () => {
    expect(duplicateMember('{"a":1,"b":2,"a":3}')).toEqual({ name: 'a', path: '' })
    expect(duplicateMember('{"a":{"x":[1,{"k":1,"k":2}]}}')).toEqual({ name: 'k', path: 'a.x[1]' })
    expect(duplicateMember('{"data":{"content":[{"type":"text"},{"type":"text","text":"a","text":"b"}]}}')).toEqual({ name: 'text', path: 'data.content[1]' })
    // A name that does not read as one in a path is quoted.
    expect(duplicateMember('{"a.b":{"":1,"":2}}')).toEqual({ name: '', path: '["a.b"]' })
  })

  it('compares names as read, so that an escaped spelling is the same name', () => {
    expect(duplicateMember('{"ab":1,"a\\u0062":2}')).toEqual({ name: 'ab', path: '' })
    expect(duplicateMember('{"\\"":1,"\\u0022":2}')).toEqual({ name: '"', path: '' })
  })

  it('reads strings that hold quotes, backslashes, braces and colons as strings', () => {
    expect(duplicateMember('{"a":"\\\\","b":"{\\"a\\":1}","c":"x:y","d":["a","a"]}')).toBeUndefined()
    expect(duplicateMember('{"a":"}","a":"]"}')).toEqual({ name: 'a', path: '' })
  })

  it('lets like names in two objects, or like strings in an array, be', () => {
    expect(duplicateMember('[{"x":1},{"x":1}]')).toBeUndefined()
    expect(duplicateMember('{"a":{"x":1},"b":{"x":1}}')).toBeUndefined()
    expect(duplicateMember('{"a" : 1 , "b" : [ "a" , "a" ] }')).toBeUndefined()
  })

  it('walks 10,000-deep nesting without recursion', () => {
    const deep = `${'{"a":['.repeat(10_000)}{"z":1,"z":2}${']}'.repeat(10_000)}`
    expect(duplicateMember(deep)?.name).toBe('z')
  })
})

describe('the header line (JSONL-5)', () => {
  it('passes the members JSONL-5 lists, in its order, with delegationDepth always written', () => {
    expect(headerMembersFault({ type: 'session', version: 0, id: 's', createdAt: 1, cwd: '/w', parentSession: 'p', seedLength: 3, origin: 'subagent', delegationDepth: 1, agentPreset: 'x' })).toBeUndefined()
    expect(headerMembersFault({ type: 'session', version: 0, id: 's', createdAt: 1, delegationDepth: 0 })).toBeUndefined()
  })

  it('names a member out of its place, one no writer writes, and one written as null', () => {
    const base = { type: 'session', version: 0, id: 's', createdAt: 1 }
    expect(headerMembersFault({ type: 'session', version: 0, createdAt: 1, id: 's', delegationDepth: 0 })).toBe('the header line writes createdAt where id belongs; writers write type, version, id, createdAt, delegationDepth in that order')
    expect(headerMembersFault({ ...base, delegationDepth: 0, cwd: '/w' })).toMatch(/^the header line writes delegationDepth where cwd belongs; /)
    expect(headerMembersFault({ ...base, delegationDepth: 0, title: 't' })).toBe('the header line writes "title", which is not one of the members JSONL-5 lists')
    expect(headerMembersFault({ ...base, cwd: null, delegationDepth: 0 })).toBe('the header line writes cwd as null; a writer leaves out a member the header does not have')
  })
})

describe('packed rows (ROW-6, ROW-7)', () => {
  const data = { turn: 1, step: 1, index: 0, dt: [0, 0], texts: ['a', 'b', 'c'] }
  const call = { turn: 1, step: 1, index: 0, dt: [0, 0], id: 'c1', name: 'bash', args: ['{', '}', ''] }

  it('passes a row of three or more members in ROW-7\'s order, of either form', () => {
    const { name: _, ...unnamed } = call
    for (const row of [{ type: 'text-chunks', seq0: 1, time0: 1, data }, { type: 'tool-call-chunks', seq0: 1, time0: 1, data: call }, { type: 'tool-call-chunks', seq0: 1, time0: 1, data: unnamed }, { type: 'assistant/chunk', seq: 1, time: 1, data: {} }]) {
      expect(rowOrderFault(row)).toBeUndefined()
      expect(shortRowFault(row)).toBeUndefined()
    }
  })

  it('names a row of one or two members (ROW-6), and members out of ROW-7\'s order', () => {
    expect(shortRowFault({ type: 'reasoning-chunks', seq0: 1, time0: 1, data: { ...data, dt: [0], texts: ['a', 'b'] } })).toBe('it packs two events, and a writer packs only runs of three or more')
    expect(shortRowFault({ type: 'tool-call-chunks', seq0: 1, time0: 1, data: { ...call, dt: [], args: ['{}'] } })).toBe('it packs one event, and a writer packs only runs of three or more')
    expect(rowOrderFault({ seq0: 1, type: 'text-chunks', time0: 1, data })).toBe('its members are seq0, type, time0, data, where ROW-7 writes type, seq0, time0, data')
    const { id, name, ...rest } = call
    expect(rowOrderFault({ type: 'tool-call-chunks', seq0: 1, time0: 1, data: { ...rest, name, id } })).toBe('its data members are turn, step, index, dt, args, name, id, where ROW-7 writes turn, step, index, dt, id, name, args')
    // A text or reasoning row's data out of order, and a row whose data comes before time0.
    const { texts, dt, ...head } = data
    for (const type of ['text-chunks', 'reasoning-chunks']) {
      expect(rowOrderFault({ type, seq0: 1, time0: 1, data: { ...head, texts, dt } })).toBe('its data members are turn, step, index, texts, dt, where ROW-7 writes turn, step, index, dt, texts')
    }
    expect(rowOrderFault({ type: 'reasoning-chunks', seq0: 1, data, time0: 1 })).toBe('its members are type, seq0, data, time0, where ROW-7 writes type, seq0, time0, data')
    // Each rule alone: a short row in order, a long row out of order.
    expect(rowOrderFault({ type: 'text-chunks', seq0: 1, time0: 1, data: { ...data, dt: [], texts: ['a'] } })).toBeUndefined()
    expect(shortRowFault({ seq0: 1, type: 'text-chunks', time0: 1, data })).toBeUndefined()
  })
})

describe('the form of a line (JSONL-8)', () => {
  it('is JSON.stringify\'s: no whitespace, the shortest number, only the escapes it writes', () => {
    expect(lineFormFault('{"a":[1,"x"]}', { a: [1, 'x'] })).toBeUndefined()
    for (const [written, value] of [
      ['{"a": 1}', { a: 1 }],
      ['{"a":1.0}', { a: 1 }],
      ['{"a":1e2}', { a: 100 }],
      ['{"a":"\\u0041"}', { a: 'A' }],
      ['{"a":"\\/"}', { a: '/' }],
      ['{"a":"\\uD800"}', { a: '\uD800' }],
    ] as const) {
      expect(lineFormFault(written, value), written).toMatchObject({ kind: 'form' })
    }
  })

  it('is built without recursion, the text JSON.stringify writes, however deep', () => {
    fc.assert(fc.property(fc.jsonValue(), value => {
      const read = JSON.parse(JSON.stringify(value)) as unknown
      expect(stringifiedText(read)).toBe(JSON.stringify(read))
    }), runs(300))
    expect(stringifiedText(JSON.parse('{"2":[],"b":{"__proto__":"x","1":null},"a":"\\u2028\\ud800"}'))).toBe('{"2":[],"b":{"1":null,"__proto__":"x"},"a":"\u2028\\ud800"}')
    const deep = `${'['.repeat(10_000)}1${']'.repeat(10_000)}`
    expect(stringifiedText(JSON.parse(deep))).toBe(deep)
    // The line check asks the built-in first, and this one where the built-in's stack runs out.
    expect(() => JSON.stringify(JSON.parse(deep))).toThrow(RangeError)
    expect(canonicalText(JSON.parse(deep))).toBe(deep)
    expect(canonicalText({ a: [1, 'x'] })).toBe('{"a":[1,"x"]}')
  })

  it('says where the line first differs', () => {
    expect(firstDifference('{"a": 1}', '{"a":1}')).toBe('from character 6 it has ` 1}` where JSON.stringify writes `1}`')
    expect(firstDifference('{"a":1} ', '{"a":1}')).toBe('from character 8 it has ` ` where JSON.stringify writes the end of the line')
    // Characters, not UTF-16 code units; two characters that share their first code unit differ whole.
    expect(firstDifference('["😀😀", 1]', '["😀😀",1]')).toBe('from character 7 it has ` 1]` where JSON.stringify writes `1]`')
    expect(firstDifference('["😀😁"]', '["😀😂"]')).toBe('from character 4 it has `😁"]` where JSON.stringify writes `😂"]`')
    // As the file holds it: an escape shows one backslash; a backtick or a control character in either piece quotes both.
    expect(firstDifference('["\\u00e9"]', '["é"]')).toBe('from character 3 it has `\\u00e9"]` where JSON.stringify writes `é"]`')
    expect(firstDifference('["`b"]', '["c"]')).toBe('from character 3 it has "`b\\"]" where JSON.stringify writes "c\\"]"')
    expect(firstDifference('{"a":\t1}', '{"a":1}')).toBe('from character 6 it has "\\t1}" where JSON.stringify writes "1}"')
    // A character a report escapes (U+2028) against its escape: both quoted, so that they read apart.
    expect(firstDifference('["\\u2028"]', '["\u2028"]')).toBe('from character 3 it has "\\\\u2028\\"]" where JSON.stringify writes "\u2028\\"]"')
  })

  it('leaves a final CR to the CRLF notice, and reports a duplicate rather than the form it changes', () => {
    expect(lineFormFault('{"a":1}\r', { a: 1 })).toBeUndefined()
    expect(lineFormFault('{"a": 1, "a": 2}', { a: 2 })).toEqual({ kind: 'duplicate-member', name: 'a', path: '' })
  })
})

describe('check --writer', () => {
  it('finds nothing in what the reference writes (encodeJsonl), packed rows and every generated value included', () => {
    const logWithBatches = generatedLogArbitrary({ maxSize: 60 }).chain(log => batchCutsArbitrary(log.events.length).map(cuts => ({ log, cuts })))
    fc.assert(fc.property(logWithBatches, ({ log, cuts }) => {
      const written = accepted(reference.encodeJsonl({ header: log.header, batches: splitIntoBatches(log.events, cuts) }), 'encodeJsonl').text
      expect(writerFactsOf(written)).toEqual({})
      // The same text with one space more, or a member written twice, is found: the facts above are gathered.
      expect(writerFactsOf(written.replace(':', ': ')).form?.first).toBe(1)
      const lines = written.split('\n').slice(0, -1)
      if (lines.length > 1) {
        lines[lines.length - 1] = lines.at(-1)!.replace(/^\{"type":/, '{"type":"x","type":')
        expect(writerFactsOf(`${lines.join('\n')}\n`).duplicateMember).toMatchObject({ first: lines.length, name: 'type', path: '' })
      }
    }), runs(100))
  })

  it('says of an unterminated last line that the writer may have left its line feed out (JSONL-8), with --writer or not', () => {
    const lines = turnLines()
    const file = folder.write('unended.jsonl', text(lines).slice(0, -1))
    const tornTail = (writer: boolean): string | undefined => check(file, { writer }).diagnostics.find(found => found.code === 'TORN_TAIL')?.message
    const hint = '. If that line is a whole record that no crash cut, its writer left out the line feed that ends every record (JSONL-8)'
    expect(tornTail(true)).toMatch(new RegExp(`^recoverable torn tail from line ${lines.length} .*before it appends${hint.replace(/[.()]/g, '\\$&')}$`))
    // A reader meets such logs too (a hand edit most often): the hint is no writer's rule, only a why.
    expect(tornTail(false)).toBe(tornTail(true))
    // A line cut short is unterminated too: the reader cannot tell which, so the hint is conditional.
    const cut = check(folder.write('cut.jsonl', `${text(lines.slice(0, -1))}{"type":"turn/e`), { writer: true })
    expect(cut.diagnostics.find(found => found.code === 'TORN_TAIL')?.message).toContain(hint)
    // A tail that starts at a damaged complete line is no line feed left out, whatever follows it.
    const damaged = check(folder.write('damaged-end.jsonl', `${text(lines.slice(0, -1))}{"type":\n${lines.at(-1)!}`), { writer: true })
    expect(damaged.diagnostics.find(found => found.code === 'TORN_TAIL')?.message).toMatch(/JSONL_LINE_UNPARSABLE: it is not one JSON text\).*before it appends$/)
  })

  it('reports each rule at its line: MUSTs as errors that make the file invalid, the form as a notice', () => {
    const lines = turnLines()
    lines[0] = '{"type":"session","id":"s","version":0,"createdAt":1,"delegationDepth":0}'
    lines[2] = lines[2]!.replace('"time":1,', '"time":1,"time":1,')
    lines[4] = lines[4]!.replace('"content":[]', '"content": []')
    lines[5] = lines[5]!.replace('"step":1', '"step":1.0')
    const file = folder.write('broken-writer.jsonl', text(lines))
    const space = lines[4]!.indexOf(': [') + 2
    expect(writerCodes(file)).toEqual([
      ['error', 'WRITER_HEADER_MEMBERS', 'JSONL-5', '1'],
      ['error', 'WRITER_DUPLICATE_MEMBER', 'JSON-12', '3'],
      ['notice', 'WRITER_LINE_FORM', 'JSONL-8', '5'],
    ])
    const report = check(file, { writer: true })
    expect(report.status).toBe('invalid')
    expect(report.outcome).toMatchObject({ verdict: 'accepted', relations: [] })
    const messages = report.diagnostics.map(found => found.message)
    expect(messages).toContain('this line writes a member name twice in one object (here "time" in the top-level object); a reader keeps only the last, a writer must not write it')
    expect(messages).toContain(`2 lines (line 5 the first of them) differ from JSON.stringify's text of what they hold, which JSONL-8 asks writers to write so that two writers write the same bytes (from character ${space} it has \` [],"source"\` where JSON.stringify writes \`[],"source":\`)`)
  })

  it('checks nothing of the writer without --writer', () => {
    const lines = turnLines()
    lines[2] = lines[2]!.replace('"time":1,', '"time":1,"time":1,')
    const file = folder.write('duplicate-only.jsonl', text(lines))
    expect(writerCodes(file, false)).toEqual([])
    expect(check(file).status).toBe('valid')
    expect(check(file, { writer: true }).status).toBe('invalid')
  })

  it('a line not in JSON.stringify\'s form alone leaves the file valid', () => {
    const file = folder.write('spaced-header.jsonl', text([HEADER.replace(',"id"', ', "id"'), ...turnLines().slice(1)]))
    expect(writerCodes(file)).toEqual([['notice', 'WRITER_LINE_FORM', 'JSONL-8', '1']])
    expect(check(file, { writer: true }).status).toBe('valid')
  })

  it('reads a zstd artifact\'s lines alike', () => {
    const lines = turnLines()
    lines[6] = lines[6]!.replace('"turn":1,', '"turn":1,"turn":1,')
    const file = folder.write('session.jsonl.zstd', zstdArtifact(lines, [3, 3]))
    expect(writerCodes(file)).toEqual([['error', 'WRITER_DUPLICATE_MEMBER', 'JSON-12', '7']])
  })

  it('an artifact that holds only its header, raw or zstd, breaks JSONL-8 (the reader loads it as an empty log)', () => {
    for (const [name, bytes] of [['header-only.jsonl', `${HEADER}\n`], ['header-only.jsonl.zstd', zstdArtifact([HEADER], [1])]] as const) {
      const file = folder.write(name, bytes)
      expect(writerCodes(file), name).toEqual([['error', 'WRITER_HEADER_ONLY', 'JSONL-8', 'undefined']])
      expect(check(file).status, name).toBe('valid')
    }
    expect(writerCodes(folder.write('header-torn.jsonl', `${HEADER}\n{"type":"turn/st`))).toEqual([])
  })

  it('a zstd frame that declares a window over 8 MiB breaks JSONL-14, whether or not check can then decode it', () => {
    const lines = turnLines()
    // Window descriptor bytes (RFC 8878: 2^(10 + exponent), plus an eighth of it per mantissa step).
    const MIB_8 = 13 << 3
    const MIB_9 = (13 << 3) | 1
    const MIB_128 = 17 << 3
    const contents = [`${lines[0]}\n`, text(lines.slice(1, 4)), text(lines.slice(4))].map(content => Buffer.from(content))
    const artifact = (options: (index: number) => Parameters<typeof rawFrame>[1]): Buffer => Buffer.concat(contents.map((content, index) => rawFrame(content, options(index))))
    const second = rawFrame(contents[0]!).length
    const diagnostics = (file: string, writer: boolean): Array<[string, number | undefined, string]> => check(file, { writer }).diagnostics.map(found => [found.code, found.line, found.message])
    const rule = 'no writer may declare more, since a reader need accept no more; zstd declares more at levels 20 to 22 and with --long'

    // 8 MiB, the most a writer may declare and every reader (check included) decodes.
    const most = folder.write('window-8mib.jsonl.zstd', artifact(() => ({ windowByte: MIB_8 })))
    expect(check(most, { writer: true })).toMatchObject({ status: 'valid', diagnostics: [] })

    // 128 MiB windows in frames that state a small content size: check decodes them, as the reader does.
    const stated = folder.write('window-128mib-stated.jsonl.zstd', artifact(index => (index === 0 ? {} : { windowByte: MIB_128, statesSize: true })))
    expect(check(stated)).toMatchObject({ status: 'valid', outcome: pipelineOutcome(readFileSync(stated), 'zstd') })
    expect(check(stated, { writer: true }).status).toBe('invalid')
    expect(diagnostics(stated, true)).toEqual([['WRITER_FRAME_WINDOW', 2, `2 frames declare windows over 8388608 bytes (8 MiB), the first at byte ${second} (134217728 bytes): ${rule}`]])

    // A 9 MiB window in the header frame, which check does not decode: unchecked, with the writer's error.
    const header = folder.write('window-9mib-header.jsonl.zstd', artifact(index => (index === 0 ? { windowByte: MIB_9 } : {})))
    expect(diagnostics(header, false).map(([code]) => code)).toEqual(['CHECK_WINDOW_TOO_LARGE'])
    expect(check(header, { writer: true }).status).toBe('unchecked')
    expect(diagnostics(header, true)).toEqual([
      ['CHECK_WINDOW_TOO_LARGE', undefined, expect.stringContaining('the frame at byte 0 needs a 9437184-byte window') as unknown as string],
      ['WRITER_FRAME_WINDOW', 1, `the frame at byte 0 declares a window of 9437184 bytes, over 8388608 bytes (8 MiB): ${rule}`],
    ])

    // A torn last frame declares its window too (its content size is not checked, so its window counts).
    const whole = artifact(index => (index === 2 ? { windowByte: MIB_128, statesSize: true } : {}))
    const torn = folder.write('window-128mib-torn.jsonl.zstd', whole.subarray(0, whole.length - 10))
    expect(diagnostics(torn, true).map(([code, line]) => [code, line])).toEqual([['CHECK_WINDOW_TOO_LARGE', undefined], ['WRITER_FRAME_WINDOW', 5]])
  })

  it('zstd frames without a content checksum break JSONL-13, counted, the first placed by byte and line', () => {
    const lines = turnLines()
    const file = folder.write('unsummed.jsonl.zstd', zstdArtifact(lines, [3, 3], content => rawFrame(content, { checksum: false })))
    expect(writerCodes(file)).toEqual([['error', 'WRITER_FRAME_CHECKSUM', 'JSONL-13', '1']])
    expect(check(file, { writer: true }).diagnostics[0]?.message).toBe('3 frames have no content checksum, the first at byte 0: a reader checks one only when it is there, and writers set the checksum flag on every frame')
    expect(check(file).status).toBe('valid')
    // Only the second batch's frame: its byte is where the first two frames end.
    const mixed = Buffer.concat([rawFrame(Buffer.from(`${lines[0]}\n`)), rawFrame(Buffer.from(`${lines.slice(1, 4).join('\n')}\n`)), rawFrame(Buffer.from(`${lines.slice(4).join('\n')}\n`), { checksum: false })])
    const second = rawFrame(Buffer.from(`${lines[0]}\n`)).length + rawFrame(Buffer.from(`${lines.slice(1, 4).join('\n')}\n`)).length
    const report = check(folder.write('half-summed.jsonl.zstd', mixed), { writer: true })
    expect(report.diagnostics.map(found => [found.code, found.line, found.message])).toEqual([
      ['WRITER_FRAME_CHECKSUM', 5, `the frame at byte ${second} has no content checksum: a reader checks one only when it is there, and writers set the checksum flag on every frame`],
    ])
  })

  it('a frame that holds no batch, empty or with part of a line, breaks JSONL-13; a line cut by the last frame stays the reader\'s', () => {
    const lines = turnLines()
    const header = rawFrame(Buffer.from(`${lines[0]}\n`))
    const records = `${lines.slice(1).join('\n')}\n`
    const cut = records.indexOf('\n') + 10
    const split = Buffer.concat([header, rawFrame(Buffer.from(records.slice(0, cut))), rawFrame(Buffer.from(records.slice(cut)))])
    const report = check(folder.write('split.jsonl.zstd', split), { writer: true })
    expect(report.outcome).toMatchObject({ verdict: 'accepted', events: 6 })
    expect(report.diagnostics.map(found => [found.code, found.line, found.message])).toEqual([
      ['WRITER_FRAME_BATCH', 2, `the frame at byte ${header.length} holds no batch (its content ends inside line 3, which the next frame goes on with): after the header's, each frame holds one batch, whole records each ended by its line feed`],
    ])
    const empty = Buffer.concat([header, rawFrame(Buffer.from(records)), rawFrame(new Uint8Array(0))])
    expect(writerCodes(folder.write('empty-frame.jsonl.zstd', empty))).toEqual([['error', 'WRITER_FRAME_BATCH', 'JSONL-13', '8']])
    // A header frame and then empty frames only: no batch, rather than a header alone.
    const emptyOnly = Buffer.concat([header, rawFrame(new Uint8Array(0)), rawFrame(new Uint8Array(0))])
    expect(writerCodes(folder.write('empty-frames-only.jsonl.zstd', emptyOnly))).toEqual([['error', 'WRITER_FRAME_BATCH', 'JSONL-13', '2']])
    const lastCut = Buffer.concat([header, rawFrame(Buffer.from(records.slice(0, cut)))])
    const torn = check(folder.write('last-cut.jsonl.zstd', lastCut), { writer: true })
    expect(torn.diagnostics.map(found => found.code)).toEqual(['JSONL_FRAME_INVALID'])
  })

  it('judges only the lines the reader accepted: not one it cannot parse, nor the torn tail after it', () => {
    // A byte order mark makes a line unparsable for the reader (JSONL-9), though the rest parses.
    const file = folder.write('torn-writer.jsonl', `${text(turnLines())}\uFEFF{"a":1,"a":2}\n{"type": "turn/start"}\n`)
    expect(check(file).outcome).toMatchObject({ verdict: 'accepted', tornTail: { line: 8, reason: 'JSONL_LINE_UNPARSABLE' } })
    expect(writerCodes(file)).toEqual([])
  })

  it('checks a valid line nested 10,000 deep, as the reader reads it', () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`
    const lines = turnLines(`[{"type":"text","text":"hi","extra":${deep}}]`)
    const file = folder.write('deep-writer.jsonl', text(lines))
    expect(check(file, { writer: true }).status).toBe('valid')
    expect(writerCodes(file)).toEqual([])
    const spaced = folder.write('deep-spaced.jsonl', text(turnLines(`[{"type":"text","text":"hi","extra":${deep.replace('[]', '[ ]')}}]`)))
    expect(writerCodes(spaced)).toEqual([['notice', 'WRITER_LINE_FORM', 'JSONL-8', '3']])
  })

  it('a packed row no writer writes is an error at its line, by the rule it breaks', () => {
    const row = (texts: string[]): string => `{"type":"text-chunks","seq0":3,"time0":3,"data":{"turn":1,"step":1,"index":0,"dt":[${texts.slice(1).map(() => 0).join(',')}],"texts":${JSON.stringify(texts)}}}`
    const lines = (texts: string[]): string[] => [HEADER, '{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}', '{"type":"user/message","seq":1,"time":1,"data":{"id":"u1","role":"user","content":[{"type":"text","text":"hi"}],"source":{"kind":"user"}},"surfaceOp":"append"}', '{"type":"step/start","seq":2,"time":2,"data":{"turn":1,"step":1}}', row(texts)]
    expect(writerCodes(folder.write('row-ok.jsonl', text(lines(['a', 'b', 'c']))))).toEqual([])
    expect(writerCodes(folder.write('row-short.jsonl', text(lines(['a', 'b']))))).toEqual([['error', 'WRITER_ROW', 'ROW-6', '5']])
    const reordered = lines(['a', 'b', 'c'])
    reordered[4] = reordered[4]!.replace('"type":"text-chunks","seq0":3', '"seq0":3,"type":"text-chunks"')
    expect(writerCodes(folder.write('row-order.jsonl', text(reordered)))).toEqual([['error', 'WRITER_ROW', 'ROW-7', '5']])
    // A row that breaks both rules is reported under each.
    const both = lines(['a', 'b'])
    both[4] = both[4]!.replace('"type":"text-chunks","seq0":3', '"seq0":3,"type":"text-chunks"')
    expect(writerCodes(folder.write('row-both.jsonl', text([...both, row(['c', 'd', 'e']).replace('"seq0":3', '"seq0":5')])))).toEqual([['error', 'WRITER_ROW', 'ROW-6', '5'], ['error', 'WRITER_ROW', 'ROW-7', '5']])
  })

  it('is a flag: no value, given once; the exit status is 1 for a writer\'s error', () => {
    expect(parseCheckOptions(['log.jsonl', '--writer'])).toMatchObject({ writer: true })
    expect(parseCheckOptions(['log.jsonl'])).toMatchObject({ writer: false })
    expect(parseCheckOptions(['log.jsonl', '--writer=yes'])).toEqual({ error: '--writer takes no value' })
    expect(parseCheckOptions(['log.jsonl', '--writer', '--writer'])).toEqual({ error: '--writer is given twice' })
    expect(parseCheckOptions(['log.jsonl', '--writr'])).toEqual({ error: 'unknown option --writr; did you mean --writer?' })
    const lines = turnLines()
    lines[0] = lines[0]!.replace('"delegationDepth":0', '"delegationDepth":0,"delegationDepth":0')
    const file = folder.write('exit-writer.jsonl', text(lines))
    expect(runChild([file]).status).toBe(0)
    const run = runChild([file, '--writer', '--format', 'json'])
    expect(run.status).toBe(1)
    expect(JSON.parse(run.stdout)).toMatchObject({ writerRules: true, summary: { invalid: 1 } })
  })
})

describe.skipIf(!corpusPresent)(`check --writer over the corpus ${corpusPresent ? corpusDir : `(skipped: ${corpusDir} not found)`}`, () => {
  it('finds that upstream\'s JSONL backend keeps the writer rules: only hand-written fixtures break them', () => {
    const found = readdirSync(corpusDir).sort().flatMap(file => writerCodes(path.join(corpusDir, file)).map(codes => [file.replace(/^examples__|__session\.jsonl$|\.jsonl$/g, ''), codes[1]]))
    // The backend writes nothing until the first append, and then the header with the first batch
    // (materialize in session-persistence-jsonl), so these header-only logs are fixtures of scenarios
    // that compare no log, or replay inputs; one replay input's header line was typed with spaces.
    expect(found).toEqual([
      ['acp-agent__tests__snapshots__handshake', 'WRITER_HEADER_ONLY'],
      ['acp-agent__tests__snapshots__hook-cc-promptsubmit-block', 'WRITER_HEADER_ONLY'],
      ['acp-agent__tests__snapshots__hook-codex-promptsubmit-block', 'WRITER_HEADER_ONLY'],
      ['acp-agent__tests__snapshots__reject-extra-dirs', 'WRITER_HEADER_ONLY'],
      ['headless-agent__tests__semantic-checkpoint-snapshots__tool-outcome-unknown__replay', 'WRITER_HEADER_ONLY'],
      ['headless-agent__tests__snapshots__subagent-settlement__parent.replay', 'WRITER_HEADER_ONLY'],
      ['headless-agent__tests__subagent-inheritance-snapshots__parent-override__child.replay', 'WRITER_LINE_FORM'],
      ['headless-agent__tests__workspace-context-resume-snapshots__offline-edit__replay', 'WRITER_HEADER_ONLY'],
    ])
  })
})

describe('streaming load: a vocabulary this reader does not have', () => {
  // checkFile is an API (audit and other callers pass their own vocabulary); the CLI refuses such a name.
  it('refuses every log, with no line or seq, as the reference pipeline does', () => {
    const bytes = text(turnLines())
    const report = check(folder.write('vocabulary.jsonl', bytes), { vocabulary: 'v9-nope' })
    expect(report.outcome).toEqual({ verdict: 'rejected', operation: 'load', code: 'FORMAT_UNKNOWN_EVENT_TYPE' })
    expect(report.outcome).toEqual(pipelineOutcome(Buffer.from(bytes), 'raw', 'v9-nope'))
    expect(report.status).toBe('refused')
    expect(report.diagnostics.map(({ code, line, seq }) => ({ code, line, seq }))).toEqual([{ code: 'FORMAT_UNKNOWN_EVENT_TYPE', line: undefined, seq: undefined }])
  })
})

describe('writer rules: a member name written twice (JSON-12)', () => {
  it('is found with whitespace between the name and its colon', () => {
    expect(duplicateMember('{"a" :1,"a"\t: 2}')).toEqual({ name: 'a', path: '' })
    expect(lineFormFault('{"a" :1, "a" :2}', { a: 2 })).toEqual({ kind: 'duplicate-member', name: 'a', path: '' })
  })

  it('is found after an array has closed, with the path of its object', () => {
    expect(duplicateMember('{"a":[1,2],"b":1,"b":2}')).toEqual({ name: 'b', path: '' })
    expect(duplicateMember('{"x":[[],{"c":1},{"c":2,"c":3}]}')).toEqual({ name: 'c', path: 'x[2]' })
    expect(duplicateMember('{"x":[{"c":1}],"y":{"c":1,"d":[{}],"c":2}}')).toEqual({ name: 'c', path: 'y' })
  })
})
