// One file through `checkFile` (conformance/check/check-file.ts) in this process, where a mutation run
// reaches it: which names are zstd, the line, seq and rule of each diagnostic, a file stopped by a limit
// or unreadable, --strict, the storage layout (JSONL-3) with every name a file was given, byte notices
// past a corrupt line, named pipes given on the command line, what a notice or a --writer finding says
// of one line (or frame) and of several, and when a refusal points to --vocabulary v0-rc8.
import { execFileSync, spawn } from 'node:child_process'
import { mkdirSync, symlinkSync } from 'node:fs'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { bytesToHold, checkFile, encodingOf, type Diagnostic, type FileReport } from '../../conformance/check/check-file.ts'
import { RequirementIndex } from '../../conformance/check/requirements.ts'
import { DEFAULT_MAX_LINE_BYTES } from '../../conformance/check/options.ts'
import { check, pipelineOutcome, rawFrame, tempFolder, zstdArtifact } from './support.ts'
import { HEADER, text, turnLines } from './small-logs.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

describe('check-file', () => {
  it('reads a name as zstd only when it ends in .zstd or .zst', () => {
    expect(encodingOf(path.join(folder.dir, 'a.jsonl.zst'))).toBe('zstd')
    expect(encodingOf(path.join(folder.dir, 'a.jsonl.zstd'))).toBe('zstd')
    expect(encodingOf(path.join(folder.dir, 'a.zstd.jsonl'))).toBe('raw')
  })

  it('reports a relation violation of each member of a packed row, with its line, seq and rule', () => {
    const row = '{"type":"text-chunks","seq0":1,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[1,1],"texts":["a","b","c"]}}'
    const lines = [HEADER, '{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}', row, '{"type":"turn/end","seq":4,"time":9,"data":{"turn":1,"reason":{"kind":"completed"}}}']
    const report = check(folder.write('row.jsonl', text(lines)))
    expect(report.status).toBe('invalid')
    expect(report.diagnostics.map(({ severity, code, requirement, line, seq }) => ({ severity, code, requirement, line, seq }))).toEqual([1, 2, 3]
      .map(seq => ({ severity: 'error', code: 'STEP_NOT_OPEN', requirement: 'TURN-8', line: 3, seq })))
  })

  it('reports a load fault with its line and seq', () => {
    const lines = turnLines()
    lines[4] = (lines[4] as string).replace('"surfaceOp":"append"', '"surfaceOp":null')
    const report = check(folder.write('load-fault.jsonl', text(lines)))
    expect(report.outcome).toEqual({ verdict: 'rejected', operation: 'load', code: 'SURFACE_OP_INVALID', seq: 3 })
    expect(report.diagnostics).toMatchObject([{ severity: 'error', code: 'SURFACE_OP_INVALID', requirement: 'SURF-2', line: 5, seq: 3 }])
    expect(Object.keys(report.diagnostics[0] as object)).toContain('seq')
  })

  it('leaves a file with a line over the limit unchecked, with the limit\'s code', () => {
    const report = check(folder.write('long.jsonl', text(turnLines('[{"type":"text","text":"' + 'x'.repeat(400) + '"}]'))), { maxLineBytes: 300 })
    expect(report.outcome).toEqual({ verdict: 'unchecked', code: 'CHECK_LINE_TOO_LONG' })
    expect(report.status).toBe('unchecked')
    expect(report.diagnostics).toMatchObject([{ severity: 'error', code: 'CHECK_LINE_TOO_LONG', line: 3 }])
  })

  it('leaves a file it cannot read unchecked with CHECK_IO_ERROR, and says so', () => {
    const missing = path.join(folder.dir, 'missing.jsonl')
    const report = check(missing)
    expect(report).toMatchObject({ status: 'unchecked', outcome: { verdict: 'unchecked', code: 'CHECK_IO_ERROR' } })
    expect(report.diagnostics).toHaveLength(1)
    expect(report.diagnostics[0]).toMatchObject({ severity: 'error', code: 'CHECK_IO_ERROR' })
    expect(report.diagnostics[0]?.message).toMatch(/^cannot read: /)
  })

  it('leaves a file unchecked with CHECK_INTERNAL_ERROR when the checker itself fails, not CHECK_IO_ERROR', () => {
    const file = folder.write('internal.jsonl', text(turnLines()))
    // A failure that is no read of the file: settings whose vocabulary cannot be read.
    const settings = { maxLineBytes: DEFAULT_MAX_LINE_BYTES, get vocabulary(): string { throw new Error('broken settings') } }
    const report = checkFile(file, settings, new RequirementIndex())
    expect(report).toMatchObject({ status: 'unchecked', outcome: { verdict: 'unchecked', code: 'CHECK_INTERNAL_ERROR' } })
    expect(report.diagnostics).toMatchObject([{ severity: 'error', code: 'CHECK_INTERNAL_ERROR' }])
    expect(report.diagnostics[0]?.message).toMatch(/^the checker failed: broken settings/)
  })

  it('with strict, makes a file with a notice invalid, and leaves one without any valid', () => {
    const lines = turnLines()
    const torn = folder.write('torn.jsonl', `${text(lines)}{"type":"turn/st`)
    const clean = folder.write('clean.jsonl', text(lines))
    const settings = (strict: boolean) => ({ vocabulary: 'v0-pinned', maxLineBytes: DEFAULT_MAX_LINE_BYTES, writer: false, strict })
    const requirements = new RequirementIndex()
    expect(checkFile(torn, settings(false), requirements).status).toBe('valid')
    expect(checkFile(torn, settings(true), requirements).status).toBe('invalid')
    expect(checkFile(clean, settings(true), requirements).status).toBe('valid')
  })

  it('names in a corruption\'s message the rule the corrupt line breaks, beside JSONL-11 that makes it corruption', () => {
    const unparsable = turnLines()
    unparsable[2] = '{"type":'
    const gap = turnLines()
    gap[3] = (gap[3] as string).replace('"seq":2', '"seq":9')
    const row = [HEADER, '{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}', '{"type":"text-chunks","seq0":1,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[1],"texts":["a","b","c"]}}', '{"type":"turn/end","seq":4,"time":9,"data":{"turn":1,"reason":{"kind":"completed"}}}']
    const cases: Array<[string, string[], string, number, string]> = [
      ['unparsable', unparsable, 'JSONL_LINE_UNPARSABLE', 3, '(JSONL-9 says how a line decodes)'],
      ['gap', gap, 'JSONL_SEQ_GAP', 4, '(JSONL-10 says how seqs continue the count)'],
      ['row', row, 'JSONL_ROW_INVALID', 3, '(ROW-3 says what a packed row must hold)'],
    ]
    for (const [name, lines, code, line, rule] of cases) {
      const report = check(folder.write(`rule-${name}.jsonl`, text(lines)))
      expect(report.diagnostics).toMatchObject([{ severity: 'error', code, requirement: 'JSONL-11', line }])
      expect(report.diagnostics[0]?.message).toMatch(/^corruption: /)
      expect(report.diagnostics[0]?.message.endsWith(rule), report.diagnostics[0]?.message).toBe(true)
    }
    // A defect inside a complete zstd frame is JSONL-14's, and its message names no other rule.
    const framed = check(folder.write('rule-unparsable.jsonl.zstd', zstdArtifact(unparsable, [1])))
    expect(framed.diagnostics).toMatchObject([{ severity: 'error', code: 'JSONL_FRAME_INVALID', requirement: 'JSONL-14', line: 3 }])
    expect(framed.diagnostics[0]?.message).not.toMatch(/\)$/)
  })

  it('judges no writer rule without --writer, even on a header no writer writes', () => {
    const lines = turnLines()
    lines[0] = '{"type": "session","id":"s","version":0,"createdAt":1,"delegationDepth":0}'
    const file = folder.write('writer-header.jsonl', text(lines))
    expect(check(file)).toMatchObject({ status: 'valid', diagnostics: [] })
    expect(check(file, { writer: true }).diagnostics.map(({ code }) => code)).toEqual(['WRITER_HEADER_MEMBERS', 'WRITER_LINE_FORM'])
  })

  it('gives the byte notices of every complete line past a header line that does not decode', () => {
    const lines = turnLines()
    lines[0] = `\ufeff${lines[0] as string}`
    lines[2] = `${lines[2] as string}\r`
    expect(check(folder.write('bom-header.jsonl', text(lines))).outcome).toMatchObject({ verdict: 'rejected', code: 'JSONL_HEADER_INVALID' })
    expect(bytesToHold(Buffer.from(text(lines)), 'raw', { bytes: DEFAULT_MAX_LINE_BYTES, values: DEFAULT_MAX_LINE_BYTES }).notices).toMatchObject([{ code: 'BYTE_ORDER_MARK', line: 1 }, { code: 'CARRIAGE_RETURN', line: 3 }])
  })

  it('says what is wrong with the complete line a torn tail starts at, as it says of the same line before a turn/end', () => {
    const report = check(folder.write('null-tail.jsonl', text([...turnLines(), 'null'])))
    expect(report).toMatchObject({ status: 'valid', outcome: { verdict: 'accepted', events: 6 } })
    expect(report.diagnostics).toMatchObject([{ code: 'TORN_TAIL', line: 8 }])
    expect(report.diagnostics[0]?.message).toContain('(byte ')
    expect(report.diagnostics[0]?.message).toContain(', JSONL_SEQ_GAP: the next seq is 6, but the line holds null, not an event): dropped on read')
    // An unterminated line is read as nothing: its tail gives no more than its reason.
    const unterminated = check(folder.write('cut-tail.jsonl', `${text(turnLines())}{"type":`))
    expect(unterminated.diagnostics[0]?.message).toMatch(/\(byte \d+, unterminated\): dropped on read/)
  })

  it('notes a byte order mark only for the bytes EF BB BF, and ill-formed UTF-8 in the header line too', () => {
    // Torn-tail lines (never parsed) that start like a byte order mark but are not one: EA BB BF, EF BE BF, EF BB 80, then 7B C2 BF.
    const junk = ['\uaeff junk', '\uffbf junk', '\ufec0 junk', '{\u00bf junk']
    const report = check(folder.write('almost-bom.jsonl', text([...turnLines(), ...junk])))
    expect(report).toMatchObject({ status: 'valid', outcome: { verdict: 'accepted', events: 6 } })
    expect(report.diagnostics.map(({ code, line }) => ({ code, line }))).toEqual([{ code: 'TORN_TAIL', line: 8 }])
    // An ill-formed byte inside a string of the header: the header reads (as U+FFFD), and the notice names line 1.
    const header = Buffer.from(text(turnLines()))
    const at = header.indexOf('"id":"s"') + 6
    const bad = Buffer.concat([header.subarray(0, at), Buffer.from([0xff]), header.subarray(at)])
    const ill = check(folder.write('ill-formed-header.jsonl', bad))
    expect(ill.outcome).toEqual(pipelineOutcome(bad, 'raw'))
    expect(ill.diagnostics).toMatchObject([{ severity: 'notice', code: 'INVALID_UTF8', requirement: 'JSONL-9', line: 1 }])
  })

  it('gives the byte notices of every complete line, past a line that does not decode', () => {
    // Line 3 does not decode, and the turn end on line 7 makes it corruption, where a check stops; the
    // byte pass reads on to the CR of line 8.
    const lines = [...turnLines(), '{"type":"turn/start","seq":6,"time":6,"data":{"turn":2}}\r']
    lines[2] = '{"type":'
    expect(check(folder.write('corrupt.jsonl', text(lines))).outcome).toMatchObject({ verdict: 'rejected', code: 'JSONL_LINE_UNPARSABLE' })
    expect(bytesToHold(Buffer.from(text(lines)), 'raw', { bytes: DEFAULT_MAX_LINE_BYTES, values: DEFAULT_MAX_LINE_BYTES }).notices).toMatchObject([{ code: 'CARRIAGE_RETURN', line: 8 }])
  })
})

describe('check-file: the storage layout (JSONL-3), in this process', () => {
  const sessionLines = (id: string): string[] => [`{"type":"session","version":0,"id":"${id}","createdAt":1,"cwd":"/workspace/project","delegationDepth":0}`, ...turnLines().slice(1)]
  const settings = (noLayout: boolean) => ({ vocabulary: 'v0-pinned', maxLineBytes: DEFAULT_MAX_LINE_BYTES, writer: false, noLayout })
  const requirements = new RequirementIndex()
  const place = (relative: string, lines: string[]): string => {
    mkdirSync(path.dirname(path.join(folder.dir, relative)), { recursive: true })
    return folder.write(relative, text(lines))
  }

  it('rejects a session.jsonl out of its place at open, first, unless --no-layout', () => {
    const misplaced = place('layout/--elsewhere--/s-8/session.jsonl', sessionLines('s-9'))
    const report = checkFile(misplaced, settings(false), requirements)
    expect(report).toMatchObject({ status: 'invalid', outcome: { verdict: 'rejected', operation: 'open', code: 'HEADER_ID_MISMATCH' } })
    expect(report.diagnostics).toMatchObject([{ severity: 'error', code: 'HEADER_ID_MISMATCH', requirement: 'JSONL-3' }])
    expect(checkFile(misplaced, settings(true), requirements)).toMatchObject({ status: 'valid', outcome: { verdict: 'accepted' }, diagnostics: [] })
    const placed = place('layout/--workspace-project--/s-1/session.jsonl', sessionLines('s-1'))
    expect(checkFile(placed, settings(false), requirements)).toMatchObject({ status: 'valid', diagnostics: [] })
  })

  it('binds every name the file was given, and keeps the findings of the artifact itself', () => {
    const placed = place('named/--workspace-project--/s-1/session.jsonl', sessionLines('s-1'))
    mkdirSync(path.join(folder.dir, 'other/--elsewhere--/s-8'), { recursive: true })
    const link = path.join(folder.dir, 'other/--elsewhere--/s-8/session.jsonl')
    symlinkSync(placed, link)
    const report = checkFile(placed, settings(false), requirements, [link])
    expect(report.outcome).toEqual({ verdict: 'rejected', operation: 'open', code: 'HEADER_ID_MISMATCH' })
    // The fault is of the other name: the message says which.
    expect(report.diagnostics[0]?.message).toMatch(new RegExp(`^named also ${link.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}: `))
    const misplaced = place('named/--elsewhere--/s-8/session.jsonl', sessionLines('s-1'))
    expect(checkFile(misplaced, settings(false), requirements, [placed]).diagnostics[0]?.message).not.toMatch(/^named also /)
    const broken = place('broken/--elsewhere--/s-8/session.jsonl', [...sessionLines('s-9').slice(0, 3), '{"type":'])
    expect(checkFile(broken, settings(false), requirements).diagnostics.map(({ code }) => code)).toEqual(['HEADER_ID_MISMATCH', 'TORN_TAIL'])
  })
  it('binds nothing when the header did not decode, or when a limit of check stopped the read', () => {
    const undecodable = place('nohead/--elsewhere--/s-8/session.jsonl', ['{"type":"session"', ...sessionLines('s-9').slice(1)])
    expect(checkFile(undecodable, settings(false), requirements).outcome).toMatchObject({ verdict: 'rejected', operation: 'decodeJsonl', code: 'JSONL_HEADER_INVALID' })
    const long = place('limit/--elsewhere--/s-8/session.jsonl', [...sessionLines('s-9').slice(0, 2), `{"pad":"${'x'.repeat(400)}"}`])
    const report = checkFile(long, { ...settings(false), maxLineBytes: 300 }, requirements)
    expect(report.outcome).toEqual({ verdict: 'unchecked', code: 'CHECK_LINE_TOO_LONG' })
    expect(report.diagnostics.map(({ code }) => code)).toEqual(['CHECK_LINE_TOO_LONG'])
  })
})

describe('check-file: a named pipe given by name', () => {
  it('reads a raw log from a pipe', async () => {
    const log = folder.write('log.jsonl', text(turnLines()))
    const pipe = path.join(folder.dir, 'pipe.jsonl')
    execFileSync('mkfifo', [pipe])
    const writer = spawn('sh', ['-c', `cat '${log}' > '${pipe}'`])
    const report = check(pipe)
    await new Promise(resolve => writer.on('close', resolve))
    expect(report).toMatchObject({ status: 'valid', outcome: { verdict: 'accepted', events: 6 } })
  })

  it('leaves a zstd pipe unchecked (CHECK_IO_ERROR) without opening it', () => {
    const pipe = path.join(folder.dir, 'pipe.jsonl.zstd')
    execFileSync('mkfifo', [pipe])
    expect(check(pipe)).toMatchObject({ status: 'unchecked', outcome: { verdict: 'unchecked', code: 'CHECK_IO_ERROR' } })
  })
})

describe('check-file: what a byte notice or a --writer finding says, for one line and for several', () => {
  const messageOf = (report: FileReport, code: string): Pick<Diagnostic, 'severity' | 'code' | 'requirement' | 'line' | 'message'>[] =>
    report.diagnostics.filter(found => found.code === code).map(({ severity, code, requirement, line, message }) => ({ severity, code, requirement, line, message }))
  /** turnLines() with an ill-formed UTF-8 byte (FF) inside a string of each line numbered: "hi" on line 3, the model's name on line 5. */
  const illFormed = (numbers: number[]): Buffer => {
    const lines = turnLines()
    if (numbers.includes(3)) lines[2] = (lines[2] as string).replace('"hi"', '"h@"')
    if (numbers.includes(5)) lines[4] = (lines[4] as string).replace('"model":"m"', '"model":"m@"')
    const bytes = Buffer.from(text(lines))
    for (let at = bytes.indexOf('@'); at !== -1; at = bytes.indexOf('@', at)) bytes[at] = 0xff
    return bytes
  }

  it('INVALID_UTF8 (JSONL-9): "this line holds", or how many lines hold it and the first of them', () => {
    const one = check(folder.write('ill-one.jsonl', illFormed([3])))
    expect(one.status).toBe('valid')
    expect(messageOf(one, 'INVALID_UTF8')).toEqual([{ severity: 'notice', code: 'INVALID_UTF8', requirement: 'JSONL-9', line: 3, message: 'this line holds ill-formed UTF-8, read as U+FFFD' }])
    const two = check(folder.write('ill-two.jsonl', illFormed([3, 5])))
    expect(two.status).toBe('valid')
    expect(messageOf(two, 'INVALID_UTF8')).toEqual([{ severity: 'notice', code: 'INVALID_UTF8', requirement: 'JSONL-9', line: 3, message: '2 lines (line 3 the first of them) hold ill-formed UTF-8, read as U+FFFD' }])
  })

  /** A turn whose step holds text-chunks rows of `texts` each, one row a line from line 5 on, seqs from 3 on. */
  const chunkRows = (...rows: string[][]): string[] => {
    let seq = 3
    const packed = rows.map(texts => {
      const row = `{"type":"text-chunks","seq0":${seq},"time0":${seq},"data":{"turn":1,"step":1,"index":0,"dt":[${texts.slice(1).map(() => 0).join(',')}],"texts":${JSON.stringify(texts)}}}`
      seq += texts.length
      return row
    })
    return [...turnLines().slice(0, 4), ...packed]
  }
  const SHORT = 'it packs two events, and a writer packs only runs of three or more'

  it('WRITER_ROW (ROW-6): a packed row no writer writes, at its line; for several, how many and the first one\'s fault', () => {
    const one = check(folder.write('short-row.jsonl', text(chunkRows(['a', 'b']))), { writer: true })
    expect(messageOf(one, 'WRITER_ROW')).toEqual([{ severity: 'error', code: 'WRITER_ROW', requirement: 'ROW-6', line: 5, message: `this line holds a packed row no writer writes: ${SHORT}` }])
    const two = check(folder.write('short-rows.jsonl', text(chunkRows(['a', 'b', 'c'], ['d', 'e'], ['f', 'g']))), { writer: true })
    expect(messageOf(two, 'WRITER_ROW')).toEqual([{ severity: 'error', code: 'WRITER_ROW', requirement: 'ROW-6', line: 6, message: `2 lines (line 6 the first of them) hold a packed row no writer writes: the first, ${SHORT}` }])
  })

  it('WRITER_DUPLICATE_MEMBER (JSON-12): names the object that writes the name twice, the top-level one or the one at its path', () => {
    const lines = turnLines()
    lines[2] = (lines[2] as string).replace('"text":"hi"', '"text":"hi","text":"ho"')
    lines[6] = (lines[6] as string).replace('"turn":1,', '"turn":1,"turn":1,')
    const report = check(folder.write('duplicate-nested.jsonl', text(lines)), { writer: true })
    expect(messageOf(report, 'WRITER_DUPLICATE_MEMBER')).toEqual([{
      severity: 'error', code: 'WRITER_DUPLICATE_MEMBER', requirement: 'JSON-12', line: 3,
      message: '2 lines (line 3 the first of them) write a member name twice in one object (here "text" in the object at data.content[0]); a reader keeps only the last, a writer must not write it',
    }])
  })

  it('WRITER_HEADER_ONLY (JSONL-8): says that the artifact holds its header alone, and names no line', () => {
    const report = check(folder.write('only-header.jsonl', `${HEADER}\n`), { writer: true })
    expect(report.diagnostics).toEqual([{ severity: 'error', code: 'WRITER_HEADER_ONLY', requirement: 'JSONL-8', message: 'the artifact holds its header and nothing else, which no writer writes: its first write holds the header and the first batch together' }])
  })

  it('WRITER_FRAME_BATCH (JSONL-13): several frames that hold no batch are counted, the first placed by byte and line', () => {
    const lines = turnLines()
    const header = rawFrame(Buffer.from(`${lines[0] as string}\n`))
    const batch = rawFrame(Buffer.from(text(lines.slice(1))))
    const empty = rawFrame(new Uint8Array(0))
    const report = check(folder.write('two-empty.jsonl.zstd', Buffer.concat([header, batch, empty, empty])), { writer: true })
    expect(messageOf(report, 'WRITER_FRAME_BATCH')).toEqual([{
      severity: 'error', code: 'WRITER_FRAME_BATCH', requirement: 'JSONL-13', line: 8,
      message: `2 frames hold no batch, the first at byte ${header.length + batch.length} (its content is empty): after the header's, each frame holds one batch, whole records each ended by its line feed`,
    }])
  })

  it('WRITER_LINE_FORM (JSONL-8): of one line, "this line differs from … what it holds"', () => {
    const lines = turnLines()
    lines[5] = (lines[5] as string).replace('"step":1', '"step":1.0')
    const report = check(folder.write('one-form.jsonl', text(lines)), { writer: true })
    // Characters are counted from 1: the first that differs is the "." after "1".
    const at = (lines[5] as string).indexOf('1.0') + 2
    expect(messageOf(report, 'WRITER_LINE_FORM')).toEqual([{
      severity: 'notice', code: 'WRITER_LINE_FORM', requirement: 'JSONL-8', line: 6,
      message: `this line differs from JSON.stringify's text of what it holds, which JSONL-8 asks writers to write so that two writers write the same bytes (from character ${at} it has \`.0}}\` where JSON.stringify writes \`}}\`)`,
    }])
  })
})

describe('check-file: the pointer to --vocabulary v0-rc8, only on the refusal of a type the rc8 builds write', () => {
  const TEAM = '{"type":"team/member","seq":6,"time":6,"data":{}}'

  it('gives a type neither vocabulary has the reader\'s message alone', () => {
    const report = check(folder.write('acme-type.jsonl', text([...turnLines(), TEAM.replace('team/member', 'acme/thing')])))
    expect(report.diagnostics).toEqual([{ severity: 'refusal', code: 'FORMAT_UNKNOWN_EVENT_TYPE', requirement: 'UNK-3', line: 8, seq: 6, message: 'event type "acme/thing" is unknown to this reader and not marked ignorable' }])
  })

  it('gives another fault whose message quotes an rc8 type the reader\'s message alone', () => {
    const lines = turnLines()
    lines[2] = (lines[2] as string).replace('"surfaceOp":"append"', '"surfaceOp":{"op":"replace","start":1,"end":1,"team/member":1}')
    const bytes = text(lines)
    const report = check(folder.write('replace-member.jsonl', bytes))
    expect(report.outcome).toEqual(pipelineOutcome(Buffer.from(bytes), 'raw'))
    expect(report.diagnostics).toHaveLength(1)
    expect(report.diagnostics[0]).toMatchObject({ severity: 'error', code: 'SURFACE_OP_INVALID', requirement: 'SURF-2', line: 3, seq: 1 })
    expect(report.diagnostics[0]?.message).toMatch(/a replace object has no member "team\/member"$/)
  })

  it('gives a type whose name quotes a type both vocabularies have the reader\'s message alone', () => {
    // turn/start, which the message quotes, is in the pinned vocabulary: no rc8 type is named.
    const odd = TEAM.replace('"team/member"', '"x\\"turn/start"')
    const report = check(folder.write('odd-pinned-type.jsonl', text([...turnLines(), odd])))
    expect(report.diagnostics).toEqual([{ severity: 'refusal', code: 'FORMAT_UNKNOWN_EVENT_TYPE', requirement: 'UNK-3', line: 8, seq: 6, message: 'event type "x"turn/start" is unknown to this reader and not marked ignorable' }])
  })

  it('gives a type whose name quotes an rc8 type, which neither vocabulary has, the reader\'s message alone', () => {
    // The reader writes the type unescaped, so its message quotes "team/member" here: only the whole message tells.
    const odd = TEAM.replace('"team/member"', '"x\\"team/member"')
    const lines = [...turnLines(), odd]
    const message = 'event type "x"team/member" is unknown to this reader and not marked ignorable'
    for (const vocabulary of ['v0-pinned', 'v0-rc8']) {
      const report = check(folder.write(`odd-rc8-type-${vocabulary}.jsonl`, text(lines)), { vocabulary })
      expect(report.diagnostics, vocabulary).toEqual([{ severity: 'refusal', code: 'FORMAT_UNKNOWN_EVENT_TYPE', requirement: 'UNK-3', line: 8, seq: 6, message }])
    }
  })
})
