// The small parts of check: the streaming XXH64 against a one-shot hash (support.ts), the line
// splitter across chunk boundaries and past its limit, the record scanner's hand-over of a line's
// events, the requirement mapping, and the options.
import { constants } from 'node:buffer'
import { describe, expect, it } from 'vitest'
import { Xxh64 } from '../../reference/xxh64.ts'
import { LineSplitter } from '../../conformance/check/lines.ts'
import { RecordScanner } from '../../conformance/check/record-scan.ts'
import { recordEvents } from '../../reference/chunk-rows.ts'
import { RequirementIndex } from '../../conformance/check/requirements.ts'
import { headerFieldsFault, headerIdentityFault } from '../../reference/storage-header.ts'
import { snapshotJson } from '../../reference/lossless-json.ts'
import { parseCheckOptions, STDIN } from '../../conformance/check/options.ts'
import { formatReport, formatSummary } from '../../conformance/check/format.ts'
import type { FileReport } from '../../conformance/check/check-file.ts'
import { random } from './log-generator.ts'
import { check, compressedFrame, hasZstdTool, pipelineOutcome, tempFolder, xxh64, zstdArtifact } from './support.ts'

function bytes(length: number, seed: number): Uint8Array {
  const next = random(seed)
  return Uint8Array.from({ length }, () => Math.floor(next() * 256))
}

describe('streaming XXH64', () => {
  it('equals the one-shot hash for every length and any split into pieces', () => {
    for (let length = 0; length < 200; length++) {
      const data = bytes(length, length + 1)
      const next = random(length)
      const hash = new Xxh64()
      for (let at = 0; at < length;) {
        const size = Math.min(length - at, Math.floor(next() * 40))
        hash.update(data.subarray(at, at + size))
        at += size
      }
      expect(hash.digest(), `length ${length}`).toBe(xxh64(data))
    }
    const large = bytes(100_003, 9)
    const hash = new Xxh64()
    hash.update(large.subarray(0, 65_536))
    hash.update(large.subarray(65_536))
    expect(hash.frameChecksum()).toBe(Number(xxh64(large) & 0xffffffffn))
  })

  // The tests above compare the hash with itself; libzstd's XXH64 is an independent answer, over the
  // stripe path (32 bytes and more) too: a frame's checksum is the low 32 bits, little-endian, at its end.
  it.skipIf(!hasZstdTool)(`agrees with the checksums the zstd tool writes${hasZstdTool ? '' : ' (skipped: no zstd tool)'}`, () => {
    for (const length of [0, 3, 31, 32, 33, 64, 100, 65_536, 100_003]) {
      const data = bytes(length, length + 7)
      const frame = compressedFrame(data)
      const hash = new Xxh64()
      hash.update(data.subarray(0, Math.floor(length / 3)))
      hash.update(data.subarray(Math.floor(length / 3)))
      expect(hash.frameChecksum(), `length ${length}`).toBe(frame.readUInt32LE(frame.length - 4))
    }
  })
})

describe('line splitter', () => {
  function split(chunks: string[], max = 1000): { lines: [string, number, number, number][]; oversized: number[]; tail: number; next: number } {
    const lines: [string, number, number, number][] = []
    const oversized: number[] = []
    const splitter = new LineSplitter({
      line: (line, number, start, end) => lines.push([line.toString(), number, start, end]),
      oversized: number => oversized.push(number),
    }, max)
    for (const chunk of chunks) splitter.push(Buffer.from(chunk))
    return { lines, oversized, tail: splitter.tailLength, next: splitter.number }
  }

  it('hands out lines with their numbers and offsets, whatever the chunking', () => {
    const whole = 'ab\n\ncde\nf'
    for (let cut = 0; cut <= whole.length; cut++) {
      expect(split([whole.slice(0, cut), whole.slice(cut)])).toEqual({
        lines: [['ab', 1, 0, 3], ['', 2, 3, 4], ['cde', 3, 4, 8]], oversized: [], tail: 1, next: 4,
      })
    }
  })

  it('skips a line over the limit without assembling it, and goes on after it', () => {
    expect(split(['x'.repeat(7), 'y'.repeat(7), 'z\nok\n', 'w'.repeat(20)], 10)).toEqual({ lines: [['ok', 2, 16, 19]], oversized: [1], tail: 20, next: 3 })
  })

  it('takes a line of exactly the limit and skips one a byte longer, in one chunk or across chunks', () => {
    const at = 'a'.repeat(10)
    const over = 'b'.repeat(11)
    expect(split([`${at}\n${over}\nok\n`], 10)).toEqual({ lines: [[at, 1, 0, 11], ['ok', 3, 23, 26]], oversized: [2], tail: 0, next: 4 })
    expect(split([at.slice(0, 4), at.slice(4), `\n${over.slice(0, 6)}`, `${over.slice(6)}\nok\n`], 10))
      .toEqual({ lines: [[at, 1, 0, 11], ['ok', 3, 23, 26]], oversized: [2], tail: 0, next: 4 })
  })

  it('says whether a skipped line holds a backslash or turn/end, wherever the chunks cut it', () => {
    const marks = (line: string, max = 10): boolean[] => {
      const found: boolean[] = []
      for (let size = 1; size <= line.length + 1; size++) {
        const splitter = new LineSplitter({ line: () => undefined, oversized: (_number, _start, _end, mark) => void found.push(mark) }, max)
        const text = `${line}\n`
        for (let at = 0; at < text.length; at += size) splitter.push(Buffer.from(text.slice(at, at + size)))
      }
      return [...new Set(found)]
    }
    expect(marks('x'.repeat(40))).toEqual([false])
    expect(marks(`${'x'.repeat(20)}turn/end${'x'.repeat(20)}`)).toEqual([true])
    expect(marks(`${'x'.repeat(20)}\\u0074urn/end`)).toEqual([true])
    // Both before the line passed the limit, and at its very end.
    expect(marks(`turn/end${'x'.repeat(20)}`)).toEqual([true])
    expect(marks(`${'x'.repeat(20)}turn/end`)).toEqual([true])
    expect(marks(`${'x'.repeat(20)}turn/en`)).toEqual([false])
    // The marks of one skipped line are not carried into the next.
    const found: boolean[] = []
    const splitter = new LineSplitter({ line: () => undefined, oversized: (_number, _start, _end, mark) => void found.push(mark) }, 10)
    splitter.push(Buffer.from(`${'x'.repeat(12)}turn/end\n${'y'.repeat(12)}\n`))
    expect(found).toEqual([true, false])
  })
})

describe('record scanner', () => {
  function scanned(lines: string[]): { handed: [number, string, number[]][]; rejected: (string | undefined)[] } {
    const handed: [number, string, number[]][] = []
    const scanner = new RecordScanner((events, line) => handed.push([line, events.row === undefined ? 'single' : 'row', recordEvents(events).map(event => (event as { seq: number }).seq)]), 0)
    const rejected = lines.map((line, index) => scanner.judge(Buffer.from(line), index + 2, 0, 0, false)?.error.code)
    return { handed, rejected }
  }

  it('hands the members of a packed row to the load together, as one line', () => {
    // The load checks the first member fully and repeats its outcome for the others (streaming-load.ts).
    const row = '{"type":"text-chunks","seq0":1,"time0":5,"data":{"turn":1,"step":1,"index":0,"dt":[1,1],"texts":["a","b","c"]}}'
    expect(scanned(['{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}', row, '{"type":"step/end","seq":4,"time":9,"data":{"turn":1,"step":1}}'])).toEqual({
      handed: [[2, 'single', [0]], [3, 'row', [1, 2, 3]], [4, 'single', [4]]], rejected: [undefined, undefined, undefined],
    })
  })

  it('hands on nothing from a damaged line, nor from any line after it', () => {
    expect(scanned(['{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}', '{"type":', '{"type":"x","seq":1,"time":0,"data":{}}'])).toEqual({
      handed: [[2, 'single', [0]]], rejected: [undefined, undefined, undefined],
    })
  })
})

describe('requirements of reported codes', () => {
  const requirements = new RequirementIndex()

  it('names the turn rule an event broke by its kind, for the codes several turn rules share', () => {
    const of = (code: string, eventType: string, replaces = false): string | undefined => requirements.ofViolation({ code, eventType, replaces })
    expect(of('TURN_NOT_OPEN', 'turn/end')).toBe('TURN-6')
    expect(of('STEP_MISMATCH', 'step/start')).toBe('TURN-7')
    expect(of('TURN_NOT_OPEN', 'assistant/chunk')).toBe('TURN-8')
    expect(of('STEP_MISMATCH', 'assistant/chunk')).toBe('TURN-8')
    expect(of('STEP_NOT_OPEN', 'tool/result')).toBe('TURN-8')
    expect(of('TURN_NOT_OPEN', 'tool/result', true)).toBe('TURN-9')
    expect(of('TURN_NOT_OPEN', 'tool/result')).toBe('TURN-8')
    expect(of('TURN_NOT_OPEN', 'assistant/message', true)).toBe('TURN-8')
    expect(of('TURN_NOT_OPEN', 'todo/write')).toBe('TURN-9')
    expect(of('TOOL_RESULT_ORPHAN', 'tool/result')).toBe(requirements.of('relations', 'TOOL_RESULT_ORPHAN'))
  })

  it('maps each code to the first requirement of the chapter that raised it, one that orders checks last', () => {
    expect(requirements.of('relations', 'TURN_NOT_OPEN')).toBe('TURN-6')
    expect(requirements.of('relations', 'COMPACTION_CHECKPOINT_OUTSIDE_BRACKET')).toBe('COMP-9')
    // ENV-8 and VOC-8 set the order of their chapter's checks and name every code of it; the rule
    // that states the check comes first, though it is numbered after them.
    expect(requirements.of('replay', 'ENV_SEQ_NOT_CONTIGUOUS')).toBe('ENV-9')
    expect(requirements.of('shape', 'MESSAGE_ROLE_INVALID')).toBe('VOC-10')
    expect(requirements.of('shape', 'MESSAGE_CALL_ID_MISMATCH')).toBe('VOC-13')
    expect(requirements.of('replay', 'JSON_NEGATIVE_ZERO')).toBe('JSON-2')
    expect(requirements.of('header-fields', 'JSON_NEGATIVE_ZERO')).toBe('META-5')
    expect(requirements.of('decode', 'JSONL_SEQ_GAP')).toBe('JSONL-11')
    expect(requirements.of('decode', 'FORMAT_VERSION_NEWER')).toBe('JSONL-6')
    expect(requirements.of('vocabulary', 'FORMAT_UNKNOWN_EVENT_TYPE')).toBe('UNK-3')
  })

  it('maps a header member\'s fault to the rule of that member in chapter 03', () => {
    const fault = (code: string, message: string) => requirements.ofLoadFault({ stage: 'header-fields', code, message })
    expect(fault('HEADER_FIELD_INVALID', 'header seedLength must be a non-negative safe integer')).toBe('META-8')
    expect(fault('HEADER_FIELD_INVALID', 'header parentSession must be a string')).toBe('META-8')
    expect(fault('HEADER_FIELD_INVALID', 'header createdAt must be a non-negative safe integer')).toBe('META-6')
    expect(fault('HEADER_FIELD_INVALID', 'header cwd must be a string')).toBe('META-7')
    expect(fault('HEADER_CWD_NOT_ABSOLUTE', 'header cwd "repo" is not an absolute path')).toBe('META-7')
    expect(requirements.ofLoadFault({ stage: 'header', code: 'HEADER_FIELD_INVALID', message: 'header id must be a string' })).toBe('META-2')
    expect(fault('JSON_NEGATIVE_ZERO', 'in the session header, member x is negative zero')).toBe('META-5')
  })

  // ofLoadFault reads the member from the reference's message, so the reference's own faults pin that wording.
  it('maps each member fault the reference itself gives to that member\'s rule', () => {
    const valid = { id: 's', version: 0, createdAt: 1, cwd: '/repo' }
    const replayFaults: [member: string, value: unknown, rule: string][] = [
      ['createdAt', -1, 'META-6'], ['cwd', 3, 'META-7'], ['cwd', 'repo', 'META-7'], ['parentSession', 1, 'META-8'],
      ['seedLength', 1.5, 'META-8'], ['origin', 'user', 'META-8'], ['delegationDepth', -1, 'META-8'], ['agentPreset', null, 'META-8'],
    ]
    for (const [member, value, rule] of replayFaults) {
      const found = headerFieldsFault(snapshotJson({ ...valid, [member]: value }))
      expect(found, member).toBeDefined()
      expect(requirements.ofLoadFault({ stage: 'header-fields', ...found! }), `${member}: ${found!.message}`).toBe(rule)
    }
    for (const [member, value, rule] of [['id', 7, 'META-2'], ['version', '0', 'META-3']] as const) {
      const found = headerIdentityFault({ ...valid, [member]: value }, undefined)
      expect(requirements.ofLoadFault({ stage: 'header', ...found! }), `${member}: ${found?.message}`).toBe(rule)
    }
  })
})

describe('options', () => {
  it('reads paths and options in any order, and says what is wrong', () => {
    expect(parseCheckOptions(['a', '--format', 'json', 'b', '--vocabulary', 'v0-rc8', '--max-line-bytes', '100'])).toEqual({
      paths: ['a', 'b'], format: 'json', vocabulary: 'v0-rc8', maxLineBytes: 100, maxFindings: 100, writer: false, strict: false, noLayout: false, known: undefined,
    })
    expect(parseCheckOptions(['a', '--known', 'k.yaml'])).toMatchObject({ known: 'k.yaml', paths: ['a'] })
    expect(parseCheckOptions(['a', '--known'])).toEqual({ error: '--known needs a value' })
    expect(parseCheckOptions(['--writer', '--', '--strict', '-', 'b'])).toMatchObject({ paths: ['--strict', STDIN, 'b'], writer: true, strict: false })
    expect(parseCheckOptions([])).toEqual({ error: 'check needs at least one PATH' })
    expect(parseCheckOptions(['a', '--vocabulary', 'v9'])).toMatchObject({ error: expect.stringContaining('v0-pinned or v0-rc8') })
    expect(parseCheckOptions(['a', '--max-line-bytes', '-1'])).toMatchObject({ error: expect.stringContaining('positive') })
    // A longer line could not become one string, which the reader would take for an unparsable line.
    expect(parseCheckOptions(['a', '--max-line-bytes', String(constants.MAX_STRING_LENGTH)])).toMatchObject({ maxLineBytes: constants.MAX_STRING_LENGTH })
    expect(parseCheckOptions(['a', '--max-line-bytes', String(constants.MAX_STRING_LENGTH + 1)]))
      .toEqual({ error: `--max-line-bytes is at most ${constants.MAX_STRING_LENGTH}, the longest string Node holds, not ${constants.MAX_STRING_LENGTH + 1}` })
    expect(parseCheckOptions(['a', '--fast'])).toEqual({ error: 'unknown option --fast' })
    expect(parseCheckOptions(['--format=json', 'a'])).toMatchObject({ format: 'json', paths: ['a'] })
    expect(parseCheckOptions(['a', '--format'])).toEqual({ error: '--format needs a value' })
    expect(parseCheckOptions(['a', '--format', 'json', '--format=text'])).toEqual({ error: '--format is given twice' })
  })

  it('takes --max-findings for the text report only: a count, 0 for all', () => {
    expect(parseCheckOptions(['a', '--max-findings', '0'])).toMatchObject({ maxFindings: 0 })
    expect(parseCheckOptions(['a', '--max-findings=7'])).toMatchObject({ maxFindings: 7 })
    for (const bad of ['-1', '2.5', '', 'all', '0x10', '1e2', ' 5']) {
      expect(parseCheckOptions(['a', `--max-findings=${bad}`]), bad).toEqual({ error: `--max-findings needs a number of findings (0 lists all), not ${bad}` })
    }
    const json = { error: '--max-findings limits the text report; the json report lists every finding' }
    expect(parseCheckOptions(['a', '--format', 'json', '--max-findings', '5'])).toEqual(json)
    expect(parseCheckOptions(['a', '--max-findings', '5', '--format=json'])).toEqual(json)
  })
})

describe('text report', () => {
  const accepted = (events: number, relations: { code: string; seq: number }[]): FileReport => ({
    file: 'log.jsonl', encoding: 'raw', status: relations.length === 0 ? 'valid' : 'invalid', outcome: { verdict: 'accepted', events, tornTail: null, relations }, diagnostics: [],
  })

  it('counts events, relation violations and files in the singular for one', () => {
    expect(formatReport(accepted(1, []))).toBe('log.jsonl: valid, 1 event')
    expect(formatReport(accepted(2, [{ code: 'TURN_NOT_OPEN', seq: 1 }]))).toBe('log.jsonl: invalid, 2 events, 1 relation violation')
    expect(formatReport(accepted(3, [{ code: 'TURN_NOT_OPEN', seq: 1 }, { code: 'TURN_NOT_OPEN', seq: 2 }]))).toBe('log.jsonl: invalid, 3 events, 2 relation violations')
    expect(formatSummary({ files: 1, valid: 1, invalid: 0, refused: 0, known: 0, unchecked: 0, uncheckedFolders: 0 })).toBe('checked 1 file: 1 valid, 0 invalid, 0 unchecked')
    expect(formatSummary({ files: 2, valid: 1, invalid: 1, refused: 0, known: 0, unchecked: 0, uncheckedFolders: 0 })).toBe('checked 2 files: 1 valid, 1 invalid, 0 unchecked')
    expect(formatSummary({ files: 3, valid: 1, invalid: 1, refused: 0, known: 1, unchecked: 0, uncheckedFolders: 0 })).toBe('checked 3 files: 1 valid, 1 invalid, 1 known, 0 unchecked')
    expect(formatSummary({ files: 3, valid: 0, invalid: 1, refused: 2, known: 0, unchecked: 0, uncheckedFolders: 0 })).toBe('checked 3 files: 0 valid, 1 invalid, 2 refused, 0 unchecked')
    expect(formatSummary({ files: 0, valid: 0, invalid: 0, refused: 0, known: 0, unchecked: 0, uncheckedFolders: 2 })).toBe('checked 0 files: 0 valid, 0 invalid, 0 unchecked; 2 folders unchecked')
    expect(formatSummary({ files: 3, valid: 1, invalid: 0, refused: 0, known: 0, unchecked: 2, uncheckedFolders: 0 })).toBe('checked 1 of 3 files: 1 valid, 0 invalid, 2 unchecked')
    expect(formatSummary({ files: 1, valid: 0, invalid: 0, refused: 0, known: 0, unchecked: 1, uncheckedFolders: 0 })).toBe('checked 0 of 1 file: 0 valid, 0 invalid, 1 unchecked')
  })

  it('calls a log accepted by the reader but written against a writer\'s rule (--writer) invalid, and counts those errors', () => {
    const writerError = (code: string): FileReport['diagnostics'][number] => ({ severity: 'error', code, requirement: 'JSONL-13', line: 2, message: 'a frame without its checksum' })
    const notice = { severity: 'notice' as const, code: 'WRITER_LINE_FORM', requirement: 'JSONL-8', line: 2, message: 'differs' }
    const report = (diagnostics: FileReport['diagnostics'], status: FileReport['status']): FileReport => ({ ...accepted(3, []), status, diagnostics })
    expect(formatReport(report([writerError('WRITER_FRAME_CHECKSUM')], 'invalid')).split('\n')[0]).toBe('log.jsonl: invalid, 3 events, 1 writer error')
    expect(formatReport(report([writerError('WRITER_FRAME_CHECKSUM'), writerError('WRITER_ROW'), notice], 'invalid')).split('\n')[0]).toBe('log.jsonl: invalid, 3 events, 2 writer errors')
    expect(formatReport(report([notice], 'valid')).split('\n')[0]).toBe('log.jsonl: valid, 3 events')
  })

  it('says "refuses" only when the refusal is the outcome, not when a layout fault came first', () => {
    const refusal = { severity: 'refusal' as const, code: 'FORMAT_UNKNOWN_EVENT_TYPE', line: 2, seq: 0, message: 'unknown' }
    const layout = { severity: 'error' as const, code: 'HEADER_ID_MISMATCH', requirement: 'JSONL-3', message: 'elsewhere' }
    const rejected = (code: string, status: FileReport['status'], diagnostics: FileReport['diagnostics']): FileReport => ({
      file: 'log.jsonl', encoding: 'raw', status, outcome: { verdict: 'rejected', operation: code === 'HEADER_ID_MISMATCH' ? 'open' : 'load', code }, diagnostics,
    })
    expect(formatReport(rejected('FORMAT_UNKNOWN_EVENT_TYPE', 'refused', [refusal])).split('\n')[0])
      .toBe('log.jsonl: refused, load refuses it with FORMAT_UNKNOWN_EVENT_TYPE: the log may be intact, but this reader cannot read it')
    expect(formatReport(rejected('HEADER_ID_MISMATCH', 'invalid', [layout, refusal])).split('\n')[0]).toBe('log.jsonl: invalid, open rejects it with HEADER_ID_MISMATCH')
    expect(formatReport(rejected('HEADER_ID_MISMATCH', 'known', [layout, refusal])).split('\n')[0]).toBe('log.jsonl: known invalid, open rejects it with HEADER_ID_MISMATCH')
    // A known rejection of the load (or the decoding) still ends it: the headline says what that hides.
    expect(formatReport(rejected('FORMAT_UNKNOWN_EVENT_TYPE', 'known', [refusal])).split('\n')[0])
      .toBe('log.jsonl: known refused, load refuses it with FORMAT_UNKNOWN_EVENT_TYPE: the log may be intact, but this reader cannot read it, which hides any later fault of its load (a reader that can read it would see them)')
    // A rejected log's headline counts its other findings too, as an accepted log's does.
    const notice = { severity: 'notice' as const, code: 'CARRIAGE_RETURN', requirement: 'JSONL-9', line: 1, message: 'CR' }
    const writer = { severity: 'error' as const, code: 'WRITER_HEADER_MEMBERS', requirement: 'JSONL-5', line: 1, message: 'order' }
    expect(formatReport(rejected('FORMAT_UNKNOWN_EVENT_TYPE', 'refused', [refusal, writer, notice]), 0, true).split('\n')[0])
      .toBe('log.jsonl: refused, load refuses it with FORMAT_UNKNOWN_EVENT_TYPE: the log may be intact, but this reader cannot read it, 1 writer error, 1 notice (--strict)')
  })

  it('shows a control character or a bidirectional control from a file name or a log as its \\u escape', () => {
    const report: FileReport = {
      ...accepted(2, [{ code: 'TURN_NOT_OPEN', seq: 1 }]),
      file: 'a\nlog.jsonl',
      diagnostics: [{ severity: 'error', code: 'FORMAT_UNKNOWN_EVENT_TYPE', line: 2, seq: 1, message: 'type "\u001b[32mok\u202e\u2028x"' }],
    }
    expect(formatReport(report)).toBe('a\\u000alog.jsonl: invalid, 2 events, 1 relation violation\n  a\\u000alog.jsonl:2: error FORMAT_UNKNOWN_EVENT_TYPE at seq 1: type "\\u001b[32mok\\u202e\\u2028x"')
  })

  it('lists at most maxFindings findings of a file, 0 for all, and counts the rest', () => {
    const violations = [1, 2, 3].map(seq => ({ code: 'TURN_NOT_OPEN', seq }))
    const report: FileReport = {
      ...accepted(4, violations),
      diagnostics: violations.map(({ code, seq }) => ({ severity: 'error', code, requirement: 'TURN-2', line: seq + 1, seq, message: 'no turn is open' })),
    }
    const finding = (seq: number): string => `  log.jsonl:${seq + 1}: error TURN_NOT_OPEN (TURN-2) at seq ${seq}: no turn is open`
    const headline = 'log.jsonl: invalid, 4 events, 3 relation violations'
    expect(formatReport(report, 0)).toBe([headline, finding(1), finding(2), finding(3)].join('\n'))
    expect(formatReport(report, 3)).toBe([headline, finding(1), finding(2), finding(3)].join('\n'))
    expect(formatReport(report, 2)).toBe([headline, finding(1), finding(2), '  … 1 more finding (--max-findings 0 lists all)'].join('\n'))
    expect(formatReport(report, 1)).toBe([headline, finding(1), '  … 2 more findings (--max-findings 0 lists all)'].join('\n'))
  })
})

describe.skipIf(!hasZstdTool)(`zstd decoders${hasZstdTool ? '' : ' (skipped: no zstd tool)'}`, () => {
  it('decode compressed multi-block frames', () => {
    const folder = tempFolder()
    try {
      const header = '{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0}'
      const big = 'w'.repeat(300_000)
      const lines = [header, `{"type":"session/title","seq":0,"time":0,"data":{"title":"${big}"}}`, '{"type":"session/title","seq":1,"time":1,"data":{}}']
      const artifact = zstdArtifact(lines, [1], compressedFrame)
      const report = check(folder.write('big.jsonl.zstd', artifact))
      expect(report.outcome).toEqual({ verdict: 'accepted', events: 2, tornTail: null, relations: [] })
      expect(report.outcome).toEqual(pipelineOutcome(artifact, 'zstd'))
    } finally {
      folder.remove()
    }
  })
})

describe('LineSplitter once stopped', () => {
  it('hands out no line once stopped, and says it is stopped', () => {
    const lines: number[] = []
    const splitter = new LineSplitter({ line: (_bytes, number) => void lines.push(number), oversized: number => void lines.push(-number) }, 100)
    splitter.push(Buffer.from('a\nb\n'))
    expect(splitter.isStopped).toBe(false)
    splitter.stop()
    expect(splitter.isStopped).toBe(true)
    splitter.push(Buffer.from('c\nd\n'))
    expect(lines).toEqual([1, 2])
  })
})
