// Damaged and hostile input: each case gets a diagnostic that names the file, the line and the rule,
// the outcome the reference pipeline gives (where the reference can give one), and never a crash, a
// hang or unbounded memory. Inputs are generated in a temporary folder. What check does with paths,
// folders and exit statuses is in command.test.ts.
import { closeSync, openSync, writeSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { DEFAULT_MAX_LINE_BYTES } from '../../conformance/check/options.ts'
import { diagnosticLine, formatReport } from '../../conformance/check/format.ts'
import { MOST_VIOLATIONS_LISTED } from '../../conformance/check/violation-list.ts'
import { bytesToHold, encodingOf, type Diagnostic, type FileReport } from '../../conformance/check/check-file.ts'
import { check, pipelineOutcome, rawFrame, tempFolder, zstdArtifact } from './support.ts'
import { HEADER, only, runChild, sessionLines, text, turnLines, userMessage } from './small-logs.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

function checked(name: string, bytes: string | Uint8Array): { file: string; report: FileReport } {
  const file = folder.write(name, bytes)
  return { file, report: check(file) }
}

/** The report agrees with the reference pipeline on the same bytes. */
function expectReference(report: FileReport, bytes: string | Uint8Array): void {
  const data = typeof bytes === 'string' ? Buffer.from(bytes) : bytes
  expect(report.outcome).toEqual(pipelineOutcome(data, report.encoding))
}

/** A diagnostic printed as text names the file and line, and the rule it cites. */
function expectNamed(file: string, diagnostic: Diagnostic, line: number | undefined, requirement: string | undefined): void {
  expect(diagnostic.line).toBe(line)
  expect(diagnostic.requirement).toBe(requirement)
  const printed = diagnosticLine(file, diagnostic)
  expect(printed.startsWith(line === undefined ? `${file}: ` : `${file}:${line}: `)).toBe(true)
  if (requirement !== undefined) expect(printed).toContain(`(${requirement})`)
}

describe('truncated lines', () => {
  it('an unterminated last line is a recoverable torn tail', () => {
    const lines = turnLines()
    const bytes = `${text(lines.slice(0, 6))}${(lines[6] as string).slice(0, 20)}`
    const { file, report } = checked('unterminated.jsonl', bytes)
    expectReference(report, bytes)
    expect(report.status).toBe('valid')
    expectNamed(file, only(report, 'notice', 'TORN_TAIL'), 7, 'JSONL-12')
  })

  it('a cut line with no turn/end after it starts the torn tail', () => {
    const lines = turnLines()
    lines[4] = (lines[4] as string).slice(0, 30)
    lines.pop()
    const { file, report } = checked('cut-tail.jsonl', text(lines))
    expectReference(report, text(lines))
    expect(report.outcome).toMatchObject({ verdict: 'accepted', events: 3, tornTail: { line: 5, reason: 'JSONL_LINE_UNPARSABLE' } })
    const notice = only(report, 'notice', 'TORN_TAIL')
    expectNamed(file, notice, 5, 'JSONL-12')
    // What the tail drops: line 5 and every later line, the complete ones too, to the end of the file.
    const dropped = Buffer.byteLength(text(lines.slice(4)))
    expect(notice.message).toContain(`dropped on read as uncommitted data, ${lines.length - 4} lines (${dropped} bytes) from there on, complete later lines included`)
  })

  it('a cut line with a turn/end after it is corruption', () => {
    const lines = turnLines()
    lines[4] = (lines[4] as string).slice(0, 30)
    const { file, report } = checked('cut-committed.jsonl', text(lines))
    expectReference(report, text(lines))
    expect(report.status).toBe('invalid')
    const error = only(report, 'error', 'JSONL_LINE_UNPARSABLE')
    expectNamed(file, error, 5, 'JSONL-11')
    expect(error.message).toMatch(/^corruption: /)
  })

  it('lines that cannot hold a turn/end after a defect are passed over, and a turn/end after them still proves the defect committed', () => {
    // After a defect, a line with neither the bytes turn/end nor a backslash is passed over unparsed
    // (reference/jsonl.ts scanLine); the verdicts stay what parsing it would give.
    const lines = turnLines()
    lines[4] = (lines[4] as string).slice(0, 30)
    const blanks = ['', ' ', '\t', '\r', ' \t\r ', 'x', '{}', '{"type":"turn/start"}']
    const committed = text([...lines.slice(0, 5), ...blanks, ...lines.slice(5)])
    const damaged = checked('blanks-then-turn-end.jsonl', committed).report
    expectReference(damaged, committed)
    expect(only(damaged, 'error', 'JSONL_LINE_UNPARSABLE').line).toBe(5)
    const torn = text([...lines.slice(0, 5), ...blanks])
    const tail = checked('blanks-tail.jsonl', torn).report
    expectReference(tail, torn)
    expect(tail.outcome).toMatchObject({ verdict: 'accepted', tornTail: { line: 5, reason: 'JSONL_LINE_UNPARSABLE' } })
  })

  it.each([
    ['an escaped slash', (line: string) => line.replace('"turn/end"', '"turn\\/end"')],
    ['a unicode escape', (line: string) => line.replace('"turn/end"', '"\\u0074urn/end"')],
  ])('a turn/end after a defect whose type is written with %s still proves the defect committed', (_escape, escaped) => {
    const lines = turnLines()
    lines[4] = (lines[4] as string).slice(0, 30)
    const last = lines.length - 1
    expect(lines[last]).toContain('"turn/end"')
    lines[last] = escaped(lines[last] as string)
    const committed = text(lines)
    const damaged = checked('escaped-turn-end.jsonl', committed).report
    expectReference(damaged, committed)
    expect(only(damaged, 'error', 'JSONL_LINE_UNPARSABLE').line).toBe(5)
  })
})

describe('bytes that are not plain UTF-8 JSON lines', () => {
  it('ill-formed UTF-8 inside a string reads as U+FFFD, with a notice', () => {
    const lines = turnLines()
    const line = Buffer.from(userMessage(1, '[{"type":"text","text":"a@b"}]'))
    line[line.indexOf('@')] = 0xff
    const bytes = Buffer.concat([Buffer.from(text(lines.slice(0, 2))), line, Buffer.from(`\n${text(lines.slice(3))}`)])
    const { file, report } = checked('invalid-utf8.jsonl', bytes)
    expectReference(report, bytes)
    expect(report.status).toBe('valid')
    expectNamed(file, only(report, 'notice', 'INVALID_UTF8'), 3, 'JSONL-9')
  })

  it('plain UTF-8 JSON lines with LF ends get no notice at all, raw or as zstd', () => {
    const lines = turnLines()
    for (const [name, bytes] of [['plain.jsonl', Buffer.from(text(lines))], ['plain.jsonl.zstd', zstdArtifact(lines, [2])]] as const) {
      const { report } = checked(name, bytes)
      expect(report.status, name).toBe('valid')
      expect(report.diagnostics, name).toEqual([])
    }
  })

  it('ill-formed UTF-8 in a line that a 1 MiB read cuts in two still gets its notice', () => {
    // The reader vouches for well-formed reads as a whole; a line begun in an ill-formed one is checked on its own.
    const lines = turnLines()
    const head = Buffer.from(text(lines.slice(0, 2)))
    const padded = (length: number): string => userMessage(1, `[{"type":"text","text":"${'p'.repeat(length)}"}]`)
    // The next line starts 300 bytes before the first read ends.
    const padding = Buffer.from(padded((1 << 20) - head.length - 301 - padded(0).length))
    const cut = Buffer.from(userMessage(2, `[{"type":"text","text":"@${'q'.repeat(400)}"}]`))
    cut[cut.indexOf('@')] = 0xff
    const renumbered = (line: string, seq: number): string => line.replace(/"seq":\d+/, `"seq":${seq}`)
    const rest = lines.slice(3).map((line, index) => renumbered(line, index + 3))
    const bytes = Buffer.concat([head, padding, Buffer.from('\n'), cut, Buffer.from(`\n${text(rest)}`)])
    const lineStart = head.length + padding.length + 1
    expect(lineStart).toBeLessThan(1 << 20)
    expect(lineStart + cut.indexOf(0xff)).toBeLessThan(1 << 20)
    expect(lineStart + cut.length).toBeGreaterThan(1 << 20)
    const { file, report } = checked('invalid-utf8-cut.jsonl', bytes)
    expectReference(report, bytes)
    expectNamed(file, only(report, 'notice', 'INVALID_UTF8'), 4, 'JSONL-9')
  })

  it('ill-formed UTF-8 outside a string makes the line unparsable', () => {
    const lines = turnLines()
    const bytes = Buffer.concat([Buffer.from(text(lines.slice(0, 3))), Buffer.from([0xc3, 0x28, 0x0a]), Buffer.from(text(lines.slice(3)))])
    const { file, report } = checked('invalid-utf8-outside.jsonl', bytes)
    expectReference(report, bytes)
    expectNamed(file, only(report, 'error', 'JSONL_LINE_UNPARSABLE'), 4, 'JSONL-11')
    expectNamed(file, only(report, 'notice', 'INVALID_UTF8'), 4, 'JSONL-9')
  })

  it('a byte order mark makes the header line unparsable, and the notice says why', () => {
    const bytes = `\uFEFF${text(turnLines())}`
    const { file, report } = checked('bom.jsonl', bytes)
    expectReference(report, bytes)
    expectNamed(file, only(report, 'error', 'JSONL_HEADER_INVALID'), 1, 'JSONL-6')
    const notice = only(report, 'notice', 'BYTE_ORDER_MARK')
    expectNamed(file, notice, 1, 'JSONL-9')
    expect(notice.message).toMatch(/^this line starts with a byte order mark/)
  })

  it('CRLF line ends still read, with a notice', () => {
    const bytes = turnLines().map(line => `${line}\r\n`).join('')
    const { file, report } = checked('crlf.jsonl', bytes)
    expectReference(report, bytes)
    expect(report.status).toBe('valid')
    const notice = only(report, 'notice', 'CARRIAGE_RETURN')
    expectNamed(file, notice, 1, 'JSONL-9')
    expect(notice.message).toMatch(/^7 lines \(line 1 the first of them\) end with CR/)
  })

  it('the facts-only pass that audit uses gives the notices check gives, in both encodings', () => {
    const lines = turnLines().map((line, index) => (index % 2 === 0 ? `${line}\r` : line))
    const ill = Buffer.from(userMessage(1, '[{"type":"text","text":"a@b"}]'))
    ill[ill.indexOf('@')] = 0xff
    const raw = Buffer.concat([Buffer.from(text(lines.slice(0, 2))), ill, Buffer.from(`\n${text(lines.slice(3))}`)])
    const headerLength = Buffer.byteLength(`${lines[0]}\n`)
    const zstd = Buffer.concat([rawFrame(raw.subarray(0, headerLength)), rawFrame(raw.subarray(headerLength))])
    for (const [name, bytes] of [['facts.jsonl', raw], ['facts.jsonl.zstd', zstd]] as const) {
      const { report } = checked(name, bytes)
      const notices = report.diagnostics.filter(diagnostic => diagnostic.severity === 'notice')
      expect(notices.map(notice => notice.code), name).toEqual(['CARRIAGE_RETURN', 'INVALID_UTF8'])
      expect(bytesToHold(bytes, encodingOf(name), { bytes: DEFAULT_MAX_LINE_BYTES, values: DEFAULT_MAX_LINE_BYTES }).notices, name).toEqual(notices)
    }
  })
})

describe('hostile values', () => {
  it('10,000-deep nesting in a message is checked like any value', () => {
    const deep = `[{"type":"text","text":"x","extra":${'['.repeat(10_000)}${']'.repeat(10_000)}}]`
    const bytes = text(turnLines(deep))
    const { report } = checked('deep.jsonl', bytes)
    expectReference(report, bytes)
    expect(report.status).toBe('valid')
  })

  it('a line that would build more arrays and objects than a 64th of --max-line-bytes is left unchecked, unparsed', () => {
    // 6,400,000 bytes allow 100,000 values a line; brackets inside strings build none, after an escaped
    // quote too.
    const limits = { maxLineBytes: 6_400_000 }
    const nested = (depth: number): string => `[{"type":"text","text":"\\"${'[{'.repeat(60_000)}","extra":${'['.repeat(depth)}${']'.repeat(depth)}}]`
    const report = check(folder.write('many-values.jsonl', text(turnLines(nested(100_000)))), limits)
    expect(report).toMatchObject({ status: 'unchecked', outcome: { verdict: 'unchecked', code: 'CHECK_LINE_TOO_LONG' } })
    expect(only(report, 'error', 'CHECK_LINE_TOO_LONG')).toMatchObject({
      line: 3,
      message: 'not checked: line 3 holds more than 100000 opening brackets and braces outside strings, each an array or object a parser builds, the checker\'s limit for one line (one per 64 bytes of --max-line-bytes, 6400000, and at least 65536: each array or object costs check about 100 bytes of memory; a larger --max-line-bytes allows more)',
    })
    // The header line too.
    const deepHeader = `{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0,"x":${'['.repeat(100_001)}${']'.repeat(100_001)}}`
    expect(only(check(folder.write('many-values-header.jsonl', text([deepHeader, ...turnLines().slice(1)])), limits), 'error', 'CHECK_LINE_TOO_LONG')).toMatchObject({ line: 1 })
    // In a torn tail, a line the reader parses (one that may write a turn/end) is counted; one it passes
    // over is not.
    const deepTurnEnd = `{"type":"turn/end","seq":9,"time":9,"data":{"turn":1,"x":${'['.repeat(100_001)}${']'.repeat(100_001)}}}`
    const tornThenDeep = text([...turnLines().slice(0, 4), '{"type":"user/mess', deepTurnEnd])
    expect(only(check(folder.write('many-values-tail.jsonl', tornThenDeep), limits), 'error', 'CHECK_LINE_TOO_LONG')).toMatchObject({ line: 6 })
    const tornThenJunk = text([...turnLines().slice(0, 4), '{"type":"user/mess', '['.repeat(100_001)])
    expect(check(folder.write('many-values-junk-tail.jsonl', tornThenJunk), limits).outcome).toMatchObject({ verdict: 'accepted', tornTail: { line: 5 } })
    // Within it (99,000 nested arrays and the record's few), it is checked as any line.
    const within = text(turnLines(nested(99_000)))
    const checkedWithin = check(folder.write('values-within.jsonl', within), limits)
    expectReference(checkedWithin, within)
    expect(checkedWithin.status).toBe('valid')
  })

  it('10,000-deep nesting with a negative zero at the bottom is found', () => {
    const deep = `[{"type":"text","text":"x","extra":${'['.repeat(10_000)}-0${']'.repeat(10_000)}}]`
    const bytes = text(turnLines(deep))
    const { file, report } = checked('deep-zero.jsonl', bytes)
    expectReference(report, bytes)
    expectNamed(file, only(report, 'error', 'JSON_NEGATIVE_ZERO'), 3, 'JSON-2')
  })

  it('every spelling of a negative zero or an infinity is found, however the line reads', () => {
    const spellings: [string, string][] = [
      ['-0', 'JSON_NEGATIVE_ZERO'], ['-0.000', 'JSON_NEGATIVE_ZERO'], ['-0e7', 'JSON_NEGATIVE_ZERO'], ['-1e-400', 'JSON_NEGATIVE_ZERO'],
      [`-0.${'0'.repeat(400)}1`, 'JSON_NEGATIVE_ZERO'], ['1e400', 'JSON_NON_FINITE'], ['-2E+999', 'JSON_NON_FINITE'], ['9'.repeat(320), 'JSON_NON_FINITE'],
    ]
    for (const [number, code] of spellings) {
      const bytes = text(turnLines(`[{"type":"text","text":"x","extra":[1,{"n":${number}}]}]`))
      const { file, report } = checked('numbers.jsonl', bytes)
      expectReference(report, bytes)
      expectNamed(file, only(report, 'error', code), 3, 'JSON-2')
    }
  })

  it('a rewrite comparing 10,000-deep results is checked like any other, without a crash', () => {
    const deep = `${'['.repeat(10_000)}${']'.repeat(10_000)}`
    const result = (seq: number, op: string, extra: string): string => `{"type":"tool/result","seq":${seq},"time":${seq},"data":{"turn":1,"step":1,"deep":${deep},"message":{"id":"r","role":"user","content":[{"type":"tool-result","toolCallId":"c","content":[]}],"source":{"kind":"tool","callId":"c"}}},"surfaceOp":${op}${extra}}`
    const lines = [
      HEADER,
      '{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}',
      '{"type":"step/start","seq":1,"time":1,"data":{"turn":1,"step":1}}',
      '{"type":"tool/call","seq":2,"time":2,"data":{"turn":1,"step":1,"callId":"c","name":"t","arguments":"{}"}}',
      result(3, '"append"', ''),
      result(4, '{"op":"replace","start":3,"end":3}', ',"sourceEventSeqs":[3]'),
    ]
    const { report } = checked('deep-rewrite.jsonl', text(lines))
    expectReference(report, text(lines))
    expect(report.status).toBe('valid')
  })

  it('names line 1 for a fault of the header, which is the first line', () => {
    const lines = sessionLines('s-1')
    lines[0] = lines[0]!.replace('"delegationDepth":0', '"delegationDepth":0,"seedLength":-0')
    const { file, report } = checked('header-negative-zero.jsonl', text(lines))
    expectNamed(file, only(report, 'error', 'JSON_NEGATIVE_ZERO'), 1, 'META-5')
  })

  it('__proto__ keys are plain members: an unknown envelope key at the top, data inside', () => {
    const top = turnLines()
    top[2] = (top[2] as string).replace('{"type"', '{"__proto__":{"seq":9},"type"')
    const { file, report } = checked('proto-top.jsonl', text(top))
    expectReference(report, text(top))
    expectNamed(file, only(report, 'error', 'ENV_UNKNOWN_KEY'), 3, 'ENV-2')

    const inside = turnLines('[{"type":"text","text":"x","__proto__":{"polluted":true}}]')
    inside[1] = (inside[1] as string).replace('"data":{', '"data":{"__proto__":{"turn":2},')
    const second = checked('proto-data.jsonl', text(inside))
    expectReference(second.report, text(inside))
    expect(second.report.status).toBe('valid')
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined()
  })

  it('a message quoting a 2 MB event type shows the value\'s first 200 characters, counts the rest, and says the rest of the message', () => {
    const lines = [...turnLines(), `{"type":"${'x'.repeat(2_000_000)}","seq":6,"time":6,"data":{}}`]
    const { file, report } = checked('long-type.jsonl', text(lines))
    expectReference(report, text(lines))
    const diagnostic = only(report, 'refusal', 'FORMAT_UNKNOWN_EVENT_TYPE')
    expectNamed(file, diagnostic, 8, 'UNK-3')
    expect(diagnostic.message).toMatch(/^event type "x{200}…" \(1999800 more characters\) is unknown to this reader/)
  })

  it('lines that are not objects: a seq gap, torn or committed', () => {
    for (const [index, value] of ['[1,2]', 'null', '42', '"x"', 'true'].entries()) {
      const torn = turnLines().slice(0, 3).concat(value)
      const first = checked(`not-object-${index}.jsonl`, text(torn))
      expectReference(first.report, text(torn))
      expectNamed(first.file, only(first.report, 'notice', 'TORN_TAIL'), 4, 'JSONL-12')

      const committed = turnLines()
      committed.splice(3, 0, value)
      const second = checked(`not-object-committed-${index}.jsonl`, text(committed))
      expectReference(second.report, text(committed))
      expectNamed(second.file, only(second.report, 'error', 'JSONL_SEQ_GAP'), 4, 'JSONL-11')
    }
    const header = checked('not-object-header.jsonl', text(['[]', ...turnLines().slice(1)]))
    expectNamed(header.file, only(header.report, 'error', 'JSONL_HEADER_INVALID'), 1, 'JSONL-6')
  })
})

describe('zstd frames', () => {
  const lines = turnLines()
  const headerFrameLength = rawFrame(Buffer.from(`${HEADER}\n`)).length

  /**
   * The artifact of `lines` (a frame for the header, then one for lines 1 and 2, ...) with the content
   * checksum, the last byte, of the frame ending at `frameEnd` flipped.
   */
  function checksumFlipped(frameEnd: number): Buffer {
    const damaged = Buffer.from(zstdArtifact(lines, [2]))
    damaged[frameEnd - 1] = (damaged[frameEnd - 1] as number) ^ 0xff
    return damaged
  }

  it('a complete frame with a bad checksum is damage, reported at its frame', () => {
    const second = headerFrameLength
    const damaged = checksumFlipped(second + rawFrame(Buffer.from(text(lines.slice(1, 3)))).length)
    const { file, report } = checked('bad-checksum.jsonl.zstd', damaged)
    expectReference(report, damaged)
    // The spec reports a frame without a line; the diagnostic names the line its content starts on.
    expect(report.outcome).toEqual({ verdict: 'rejected', operation: 'decodeJsonl', code: 'JSONL_FRAME_INVALID' })
    const error = only(report, 'error', 'JSONL_FRAME_INVALID')
    expectNamed(file, error, 2, 'JSONL-14')
    // The byte flipped is the last of the frame, its content checksum.
    expect(error.message).toContain(`the frame at byte ${second}, whose content starts on line 2, does not decompress: its content does not match its checksum`)
  })

  it('a header frame with a bad checksum is damage that says so, not a frame of other lines', () => {
    const damaged = checksumFlipped(headerFrameLength)
    const { file, report } = checked('bad-header-checksum.jsonl.zstd', damaged)
    expectReference(report, damaged)
    expect(report.outcome).toEqual({ verdict: 'rejected', operation: 'decodeJsonl', code: 'JSONL_FRAME_INVALID' })
    const error = only(report, 'error', 'JSONL_FRAME_INVALID')
    expectNamed(file, error, 1, 'JSONL-14')
    expect(error.message).toBe('corruption: the first frame, which holds the header line, does not decompress: its content does not match its checksum')
  })

  it('an event type of the rc8 builds under the pinned vocabulary points to --vocabulary v0-rc8 (VOC-16)', () => {
    const teamMember = '{"type":"team/member","seq":6,"time":6,"data":{}}'
    const file = folder.write('rc8-team.jsonl', text([...turnLines(), teamMember]))
    const pinned = only(check(file), 'refusal', 'FORMAT_UNKNOWN_EVENT_TYPE')
    expect(pinned.message).toMatch(/ \(the rc8 builds write team\/member: --vocabulary v0-rc8 knows their types\)$/)
    // A type no vocabulary knows gets no such pointer.
    const unknown = folder.write('acme.jsonl', text([...turnLines(), teamMember.replace('team/member', 'acme/thing')]))
    expect(only(check(unknown), 'refusal', 'FORMAT_UNKNOWN_EVENT_TYPE').message).not.toContain('--vocabulary')
  })

  it('a zstd artifact under a raw name is read as raw, and the refusal says its bytes are zstd\'s', () => {
    const artifact = zstdArtifact(turnLines(), [2])
    const { report } = checked('misnamed.jsonl', artifact)
    expectReference(report, artifact)
    expect(only(report, 'error', 'JSONL_HEADER_INVALID').message).toMatch(/\(its bytes start with the zstd magic number: a log is read as zstd when its name ends in \.zstd or \.zst, from a regular file, not a pipe\)$/)
    // Bytes with no line feed at all have no header line to refuse; they get the pointer too.
    const noLineFeed = checked('no-line-feed.jsonl', Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x24, 0x01, 0x02]))
    expect(only(noLineFeed.report, 'error', 'JSONL_HEADER_INVALID').message).toBe('the artifact has no complete header line (its bytes start with the zstd magic number: a log is read as zstd when its name ends in .zstd or .zst, from a regular file, not a pipe)')
  })

  it('a torn final frame is recoverable; its complete lines are kept', () => {
    const artifact = zstdArtifact(lines, [3])
    const torn = artifact.subarray(0, artifact.length - 10)
    const { file, report } = checked('torn.jsonl.zstd', torn)
    expectReference(report, torn)
    expect(report.status).toBe('valid')
    const notice = only(report, 'notice', 'TORN_TAIL')
    expectNamed(file, notice, 5, 'JSONL-15')
    // Truncating alone would lose the lines the reader kept from the torn frame.
    // The torn frame held seqs 3 to 5; the cut falls inside the line of seq 5, so seqs 3 and 4 are kept.
    const tornFrameStart = artifact.length - rawFrame(Buffer.from(`${lines.slice(4).join('\n')}\n`)).length
    expect(report.outcome).toMatchObject({ verdict: 'accepted', events: 5, tornTail: { offset: tornFrameStart } })
    expect(notice.message).toBe(`recoverable torn final frame from line 5 (byte ${tornFrameStart}, unterminated): 2 events from its complete lines are kept on read (JSONL-15 reads them as JSONL-11 does); a writer truncates the artifact to byte ${tornFrameStart}, dropping its last ${torn.length - tornFrameStart} bytes, and writes those 2 events again, as a new frame, before it appends`)
    // Cut inside its first line, the frame gives the reader nothing to keep, and the writer nothing to write again.
    const early = artifact.subarray(0, tornFrameStart + 6 + 3 + 5)
    const cutEarly = checked('torn-early.jsonl.zstd', early).report
    expectReference(cutEarly, early)
    expect(only(cutEarly, 'notice', 'TORN_TAIL').message).toBe(`recoverable torn final frame from line 5 (byte ${tornFrameStart}, unterminated): no event of it is kept on read (JSONL-15 reads its complete lines as JSONL-11 does, and none is whole and undamaged); a writer truncates the artifact to byte ${tornFrameStart}, dropping its last 14 bytes before it appends`)
  })

  it('a first frame that is not exactly the header line and its line feed is damage', () => {
    // JSONL-14 step 2: the first frame's content is exactly the header line with its line feed.
    // A first frame of several lines is most likely a log compressed whole, which the message says.
    const severalLines = ' but holds 2 lines: a log compressed whole, as `zstd FILE` writes it, is one frame, and the layout wants the header line in a frame of its own, then a frame per append batch'
    for (const [name, content, why] of [['after', `${HEADER}\n{}`, ''], ['no-feed', HEADER, ''], ['two', `${HEADER}\n{}\n`, severalLines]] as const) {
      const bytes = Buffer.concat([rawFrame(Buffer.from(content)), rawFrame(Buffer.from(text(lines.slice(1))))])
      const { report } = checked(`header-frame-${name}.jsonl.zstd`, bytes)
      expectReference(report, bytes)
      expect(report.outcome, name).toEqual({ verdict: 'rejected', operation: 'decodeJsonl', code: 'JSONL_FRAME_INVALID' })
      expect(only(report, 'error', 'JSONL_FRAME_INVALID').message, name).toBe(`corruption: the first frame is not exactly one header line${why}`)
    }
  })

  it('bytes that are no zstd frame at all; a raw log\'s get a pointer to its name', () => {
    const { file, report } = checked('not-zstd.jsonl.zstd', text(lines))
    expectReference(report, text(lines))
    const error = only(report, 'error', 'JSONL_FRAME_INVALID')
    expectNamed(file, error, undefined, 'JSONL-14')
    expect(error.message).toBe('corruption: the artifact does not start with the zstd magic number (its bytes start with "{", as a raw log\'s do: a log is read as zstd only when its name ends in .zstd or .zst)')
    const other = checked('not-zstd-either.jsonl.zstd', Buffer.from([1, 2, 3, 4, 5]))
    expect(only(other.report, 'error', 'JSONL_FRAME_INVALID').message).toBe('corruption: the artifact does not start with the zstd magic number')
    const skippableFirst = checked('skippable-first.jsonl.zstd', Buffer.concat([Buffer.from([0x50, 0x2a, 0x4d, 0x18, 0, 0, 0, 0]), zstdArtifact(lines, [2])]))
    expect(only(skippableFirst.report, 'error', 'JSONL_FRAME_INVALID').message).toBe('corruption: the artifact does not start with the zstd magic number: its bytes start a skippable frame, which JSONL-13 does not allow')
  })

  it('bytes after the last complete frame that start no frame are placed by byte, and named when they look like something', () => {
    const artifact = zstdArtifact(lines, [2])
    // Header frame, then frames of 2, 2 and 1 lines: four complete frames.
    const skippable = Buffer.from([0x53, 0x2a, 0x4d, 0x18, 1, 0, 0, 0, 0])
    for (const [name, after, looks] of [
      ['raw-line', Buffer.from('{"type":"turn/start"}\n'), ': they start with "{", as a raw record line does (raw lines appended to a zstd log?)'],
      ['skippable', skippable, ': they start a skippable frame, which JSONL-13 does not allow'],
      ['other', Buffer.from([0, 1, 2, 3, 4]), ''],
    ] as const) {
      const bytes = Buffer.concat([artifact, after])
      const { report } = checked(`trailing-${name}.jsonl.zstd`, bytes)
      expectReference(report, bytes)
      expect(only(report, 'error', 'JSONL_FRAME_INVALID').message, name).toBe(`corruption: the bytes at byte ${artifact.length}, after 4 complete frames, do not start with the zstd magic number${looks}`)
    }
  })

  it('a frame header with reserved bits, and a block of the reserved type, are placed by byte', () => {
    const header = rawFrame(Buffer.from(`${HEADER}\n`))
    const body = rawFrame(Buffer.from(text(lines.slice(1))))
    const reservedBits = Buffer.from(body)
    reservedBits[4] = (reservedBits[4] as number) | 0x08
    const reservedBlock = Buffer.from(body)
    // The first block header's type bits (1 and 2) set to 3.
    reservedBlock[6] = (reservedBlock[6] as number) | 0x06
    for (const [name, frame, why] of [
      ['bits', reservedBits, `the frame at byte ${header.length} sets reserved bits in its header`],
      ['block', reservedBlock, `the frame at byte ${header.length} holds a block of the reserved type at byte ${header.length + 6}`],
    ] as const) {
      const bytes = Buffer.concat([header, frame])
      const { report } = checked(`reserved-${name}.jsonl.zstd`, bytes)
      expectReference(report, bytes)
      expect(only(report, 'error', 'JSONL_FRAME_INVALID').message, name).toBe(`corruption: ${why}`)
    }
  })
})

describe('a 100 MB single line', () => {
  const HUNDRED_MB = 100 * 1024 * 1024
  // A check peaks at about 175 MB here, more on a loaded machine; one that held the line would add its
  // 100 MB of bytes (and twice that as a string) to that.
  const MOST_RSS_MB = 240

  /** Writes `before`, then a line of `size` bytes of JSON text (unterminated unless `after` is given), then `after`. */
  function writeHuge(name: string, before: string, size: number, after?: string): string {
    const file = folder.write(name, before)
    const fd = openSync(file, 'a')
    const head = '{"type":"user/message","seq":1,"time":1,"data":{"id":"u1","role":"user","content":[{"type":"text","text":"'
    const tail = '"}],"source":{"kind":"user"}},"surfaceOp":"append"}'
    writeSync(fd, head)
    const piece = Buffer.alloc(1 << 20, 'a')
    for (let left = size - head.length - tail.length; left > 0; left -= piece.length) writeSync(fd, piece, 0, Math.min(left, piece.length))
    writeSync(fd, tail)
    if (after !== undefined) writeSync(fd, `\n${after}`)
    closeSync(fd)
    return file
  }

  it('as a complete record line: a limit diagnostic, in bounded memory and time', () => {
    const file = writeHuge('huge.jsonl', text(turnLines().slice(0, 2)), HUNDRED_MB, text(turnLines().slice(3)))
    const run = runChild([file, '--format', 'json'])
    expect(run.status).toBe(2)
    const report = (JSON.parse(run.stdout) as { files: FileReport[] }).files[0] as FileReport
    expect(report.outcome).toEqual({ verdict: 'unchecked', code: 'CHECK_LINE_TOO_LONG' })
    expect(only(report, 'error', 'CHECK_LINE_TOO_LONG')).toMatchObject({ line: 3 })
    expect(run.maxRssMb).toBeLessThan(MOST_RSS_MB)
    expect(run.ms).toBeLessThan(15_000)
  })

  it('as the unterminated tail: a recoverable torn tail, never read whole', () => {
    const file = writeHuge('huge-tail.jsonl', text(turnLines().slice(0, 2)), HUNDRED_MB)
    const run = runChild([file])
    expect(run.status).toBe(0)
    expect(run.stdout).toContain(`${file}:3: notice TORN_TAIL (JSONL-12)`)
    expect(run.maxRssMb).toBeLessThan(MOST_RSS_MB)
  })
})

describe('a flood of relation violations', () => {
  it('lists the first 10,000 of a packed row of 150,000 members that each break the turn nesting, and counts the rest', () => {
    // turn/start, then 150,000 text chunks of a step that never started. Every violation once kept cost
    // about 450 bytes: a 60 MB log of such rows ran V8 out of memory.
    const members = 150_000
    const row = `{"type":"text-chunks","seq0":1,"time0":10,"data":{"turn":1,"step":1,"index":0,"dt":[${new Array(members - 1).fill(0).join(',')}],"texts":[${new Array(members).fill('"x"').join(',')}]}}`
    const { file, report } = checked('flood.jsonl', text([HEADER, '{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}', row]))
    expect(report.status).toBe('invalid')
    expect(report.outcome).toMatchObject({ verdict: 'accepted', relationsNotListed: members - MOST_VIOLATIONS_LISTED })
    expect(report.outcome.verdict === 'accepted' ? report.outcome.relations.length : 0).toBe(MOST_VIOLATIONS_LISTED)
    expect(report.diagnostics).toHaveLength(MOST_VIOLATIONS_LISTED + 1)
    expect(report.diagnostics.at(-2)).toMatchObject({ code: 'STEP_NOT_OPEN', line: 3, seq: MOST_VIOLATIONS_LISTED })
    expect(report.diagnostics.at(-1)).toMatchObject({ severity: 'error', code: 'STEP_NOT_OPEN', requirement: 'TURN-8', line: 3, seq: MOST_VIOLATIONS_LISTED + 1 })
    expect(report.diagnostics.at(-1)?.message).toMatch(/^140000 violations of this kind from here on, past the 10000 that check lists of a log: counted, not listed; the first says: /)
    expect(formatReport(report).split('\n')[0]).toBe(`${file}: invalid, 150001 events, 150000 relation violations`)
  })

  it('keeps each violation message cut, whatever the value it quotes: 3,000 quoting a 1 MB id', () => {
    // Each cut message once kept alive the whole message it was cut from: 5,000 violations quoting a
    // 1 MB compaction id ran V8 out of memory on a 1.5 MB log.
    const id = 'k'.repeat(1_000_000)
    const starts = Array.from({ length: 3000 }, (_, index) => `{"type":"compaction/start","seq":${index + 1},"time":1,"data":{"compactionId":"c${index}","turn":null}}`)
    const started = performance.now()
    const { report } = checked('quoted-id.jsonl', text([HEADER, `{"type":"compaction/start","seq":0,"time":1,"data":{"compactionId":"${id}","turn":null}}`, ...starts]))
    // About 10 s alone and 13 s beside another test worker; kept alive, the messages exhaust the heap.
    expect(performance.now() - started).toBeLessThan(30_000)
    expect(report.diagnostics).toHaveLength(3000)
    expect(report.diagnostics.every(diagnostic => diagnostic.code === 'COMPACTION_ALREADY_OPEN' && diagnostic.message.length < 1100)).toBe(true)
    expect(report.diagnostics[0]?.message).toBe(`compaction/start while ${'k'.repeat(977)}… (999031 more characters)`)
  }, 60_000)

  it('lists the first 100 findings in text and counts the rest; --max-findings 0 lists all, json lists all', () => {
    const members = 1_000
    const row = `{"type":"text-chunks","seq0":1,"time0":10,"data":{"turn":1,"step":1,"index":0,"dt":[${new Array(members - 1).fill(0).join(',')}],"texts":[${new Array(members).fill('"x"').join(',')}]}}`
    const file = folder.write('flood-text.jsonl', text([HEADER, '{"type":"turn/start","seq":0,"time":1,"data":{"turn":1}}', row]))
    const findings = (stdout: string): string[] => stdout.split('\n').filter(line => line.startsWith(`  ${file}:3: error `))
    const capped = runChild([file])
    expect(capped.status).toBe(1)
    expect(findings(capped.stdout)).toHaveLength(100)
    expect(capped.stdout).toContain(`\n  … ${members - 100} more findings (--max-findings 0 lists all)\n`)
    const all = runChild([file, '--max-findings', '0'])
    expect(findings(all.stdout)).toHaveLength(members)
    expect(all.stdout).not.toContain('more finding')
    const json = runChild([file, '--format', 'json'])
    expect((JSON.parse(json.stdout) as { files: FileReport[] }).files[0]?.diagnostics).toHaveLength(members)
  })
})

describe('a zstd window beyond what the decoder holds', () => {
  it('leaves the file unchecked with CHECK_WINDOW_TOO_LARGE, instead of exhausting the heap', () => {
    // The window descriptor of each frame set to 2^26 bytes (64 MiB), as `zstd --long=26` writes it.
    const wide = (content: Uint8Array): Buffer => {
      const frame = rawFrame(content)
      frame[5] = (26 - 10) << 3
      return frame
    }
    const { report } = checked('session.jsonl.zstd', zstdArtifact(turnLines(), [6], wide))
    expect(report.status).toBe('unchecked')
    expect(only(report, 'error', 'CHECK_WINDOW_TOO_LARGE').message).toContain('needs a 67108864-byte window, over the checker\'s limit of 8388608')
  })

  it('holds no more history than a frame states as its content size, however wide its window', () => {
    // A 1 GiB window descriptor, and the frame content size (4 bytes) in the header: `size` or the true one.
    const sized = (size?: number) => (content: Uint8Array): Buffer => {
      const frame = rawFrame(content)
      const stated = Buffer.alloc(4)
      stated.writeUInt32LE(size ?? content.length)
      return Buffer.concat([frame.subarray(0, 4), Buffer.from([(frame[4] as number) | 0x80, (30 - 10) << 3]), stated, frame.subarray(6)])
    }
    const artifact = zstdArtifact(turnLines(), [3], sized())
    const { report } = checked('sized.jsonl.zstd', artifact)
    expectReference(report, artifact)
    expect(report.status).toBe('valid')
    const stated16MiB = checked('sized-16mib.jsonl.zstd', zstdArtifact(turnLines(), [3], sized(16 * 1024 * 1024))).report
    expect(only(stated16MiB, 'error', 'CHECK_WINDOW_TOO_LARGE').message).toContain('needs a 16777216-byte window, over the checker\'s limit of 8388608')
  })

  it('rejects a raw artifact with no complete header line at line 1, empty or cut inside that line, as the reference does', () => {
    for (const [name, bytes] of [['empty.jsonl', ''], ['cut-header.jsonl', HEADER.slice(0, 20)], ['whole-header-no-feed.jsonl', HEADER]] as const) {
      const { file, report } = checked(name, bytes)
      expectReference(report, bytes)
      expect(report.outcome, name).toEqual({ verdict: 'rejected', operation: 'decodeJsonl', code: 'JSONL_HEADER_INVALID', line: 1 })
      expectNamed(file, only(report, 'error', 'JSONL_HEADER_INVALID'), 1, 'JSONL-6')
    }
  })

  it('says of a raw artifact whose header is refused that it is empty, its first line is, or it is UTF-16', () => {
    const message = (name: string, bytes: string | Uint8Array): string => only(checked(name, bytes).report, 'error', 'JSONL_HEADER_INVALID').message
    expect(message('empty-file.jsonl', '')).toBe('the artifact has no complete header line: it is empty')
    expect(message('empty-first-line.jsonl', `\n${HEADER}\n`)).toBe('the header line is not one JSON text: it is empty')
    expect(message('cut.jsonl', HEADER.slice(0, 20))).toBe('the artifact has no complete header line')
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(`${HEADER}\n`, 'utf16le')])
    expect(message('utf16.jsonl', utf16)).toBe('the header line is not one JSON text (its bytes start with a UTF-16 byte order mark: the log is UTF-16, not UTF-8; convert it, for example with iconv -f UTF-16 -t UTF-8)')
    const utf16be = Buffer.from(Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from(`${HEADER}\n`, 'utf16le')]).swap16())
    expect(message('utf16be.jsonl', utf16be)).toContain('(its bytes start with a UTF-16 byte order mark')
  })

  it('says of a zstd artifact with no complete header frame whether it is empty or cut inside that frame', () => {
    const empty = checked('empty.jsonl.zstd', new Uint8Array()).report
    expectReference(empty, new Uint8Array())
    expect(only(empty, 'error', 'JSONL_HEADER_INVALID').message).toBe('the artifact has no complete header frame: it is empty')
    const cutBytes = zstdArtifact(turnLines(), [3]).subarray(0, 30)
    const cut = checked('cut-header-frame.jsonl.zstd', cutBytes).report
    expectReference(cut, cutBytes)
    expect(only(cut, 'error', 'JSONL_HEADER_INVALID').message).toBe('the artifact has no complete header frame: its 30 bytes end inside its first frame (a crash during the first write?)')
  })

  it('names a window past 2^53 bytes with all its digits, and what to do when zstd -d refuses the frame too', () => {
    // A 2^60-byte window: the largest the window descriptor can state is 2^41 + 7 * 2^38, so a content
    // size of 8 bytes in a single-segment frame states it.
    const huge = (content: Uint8Array): Buffer => {
      const frame = rawFrame(content)
      const stated = Buffer.alloc(8)
      stated.writeBigUInt64LE(2n ** 60n)
      return Buffer.concat([frame.subarray(0, 4), Buffer.from([((frame[4] as number) & 0x07) | 0xe0]), stated, frame.subarray(6)])
    }
    const { report } = checked('huge-window.jsonl.zstd', zstdArtifact(turnLines(), [3], huge))
    const message = only(report, 'error', 'CHECK_WINDOW_TOO_LARGE').message
    expect(message).toContain('needs a 1152921504606846976-byte window')
    expect(message).toMatch(/check the raw file \(if zstd -d refuses the frame too, the frame is damaged\)$/)
  })
})
