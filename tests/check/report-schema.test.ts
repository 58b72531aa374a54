// check's json report follows schemas/check-report.schema.json, over a report holding every kind of
// outcome: valid, rejected by decodeJsonl and by load, accepted with a relation violation and with a torn
// tail, unchecked past a limit and unreadable, refused (FMT-5) and a refusal known, raw and zstd, with
// notices, and a writer's findings.
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { jsonReportPrinter, summarize, type CheckSettings } from '../../conformance/check/format.ts'
import type { FileReport } from '../../conformance/check/check-file.ts'
import { knownMatchers, withKnownFindings } from '../../conformance/check/known-findings.ts'
import { check, tempFolder, zstdArtifact } from './support.ts'
import { errorsOf, schemaValidator } from '../support/schemas.ts'

const validate = schemaValidator('check-report')

const folder = tempFolder()
afterAll(() => folder.remove())

const HEADER = '{"type":"session","version":0,"id":"s","createdAt":1,"delegationDepth":0}'
const TURN = [
  '{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}',
  '{"type":"user/message","seq":1,"time":1,"data":{"id":"u1","role":"user","content":[{"type":"text","text":"hi"}],"source":{"kind":"user"}},"surfaceOp":"append"}',
  '{"type":"turn/end","seq":2,"time":2,"data":{"turn":1,"reason":{"kind":"completed"}}}',
]
const text = (lines: readonly string[], tail = ''): string => `${lines.join('\n')}\n${tail}`

function reports(): FileReport[] {
  const files: [name: string, bytes: string | Uint8Array, options?: { maxLineBytes?: number; writer?: boolean }][] = [
    ['valid.jsonl', text([HEADER, ...TURN])],
    ['bom.jsonl', `\uFEFF${text([HEADER, ...TURN])}`],
    ['load.jsonl', text([HEADER, TURN[0] as string, (TURN[1] as string).replace('"append"', '{"op":"replace","start":5,"end":0}')])],
    ['relation.jsonl', text([HEADER, ...TURN, '{"type":"turn/end","seq":3,"time":3,"data":{"turn":1,"reason":{"kind":"completed"}}}'])],
    ['torn.jsonl', text([HEADER, ...TURN], '{"type":"turn/st')],
    ['limit.jsonl', text([HEADER, ...TURN]), { maxLineBytes: 100 }],
    ['zstd.jsonl.zstd', zstdArtifact([HEADER, ...TURN], [1, 2])],
    ['writer.jsonl', text([HEADER.replace('"delegationDepth":0', '"delegationDepth": 0'), ...TURN.map(line => line.replace('"time":', '"time":0,"time":'))]), { writer: true }],
    ['refused.jsonl', text([HEADER.replace('"version":0', '"version":1'), ...TURN])],
  ]
  const checked = files.map(([name, bytes, options]) => check(folder.write(name, bytes), options))
  const refusalKnown = withKnownFindings(checked.at(-1)!, knownMatchers([{ files: '*', code: 'FORMAT_*', reason: 'a rollout' }]), false, new Set())
  return [...checked, check(path.join(folder.dir, 'missing.jsonl')), refusalKnown]
}

/** The json report printed piece by piece, as check prints it, read back; and its text. */
function jsonReport(all: readonly FileReport[], folders: Parameters<typeof summarize>[1], settings: CheckSettings, knownUnused?: []): { document: Record<string, unknown>; text: string } {
  const printed: string[] = []
  const printer = jsonReportPrinter(settings, text => printed.push(text))
  for (const report of all) printer.file(report)
  printer.end(folders, summarize(all.map(report => report.status), folders), knownUnused)
  const text = printed.join('\n')
  return { document: JSON.parse(text) as Record<string, unknown>, text }
}

describe('check --format json', () => {
  it('follows schemas/check-report.schema.json for every kind of outcome', () => {
    const all = reports()
    expect(all.map(report => [report.status, report.outcome.verdict])).toEqual([
      ['valid', 'accepted'], ['invalid', 'rejected'], ['invalid', 'rejected'], ['invalid', 'accepted'],
      ['valid', 'accepted'], ['unchecked', 'unchecked'], ['valid', 'accepted'], ['invalid', 'accepted'], ['refused', 'rejected'], ['unchecked', 'unchecked'], ['known', 'rejected'],
    ])
    expect(all[8]?.diagnostics.map(diagnostic => [diagnostic.severity, diagnostic.code])).toEqual([['refusal', 'FORMAT_VERSION_NEWER']])
    expect(all[7]?.diagnostics.map(diagnostic => [diagnostic.severity, diagnostic.code])).toEqual([['error', 'WRITER_DUPLICATE_MEMBER'], ['notice', 'WRITER_LINE_FORM']])
    const folders = [{ folder: folder.dir, code: 'CHECK_IO_ERROR' as const, message: `no *.jsonl, *.jsonl.zstd or *.jsonl.zst file under ${folder.dir}` }]
    for (const [writerRules, strict, noLayout] of [[false, false, false], [true, false, false], [false, true, false], [false, false, true]]) {
      const { document } = jsonReport(all, folders, { vocabulary: 'v0-pinned', writerRules: writerRules!, strict: strict!, noLayout: noLayout! })
      expect(validate(document), errorsOf(validate)).toBe(true)
      expect(document).toMatchObject({ reportVersion: 1, vocabulary: 'v0-pinned', exitCode: 2, summary: { files: 11, valid: 3, invalid: 4, refused: 1, known: 1, unchecked: 2, uncheckedFolders: 1 } })
      // Only a report of --writer, --strict or --no-layout says so; one without them is what it was before the options came.
      expect(document['writerRules']).toBe(writerRules ? true : undefined)
      expect(document['strict']).toBe(strict ? true : undefined)
      expect(document['noLayout']).toBe(noLayout ? true : undefined)
    }
  })

  it('prints the text JSON.stringify would, in pieces, with no file, one or many', () => {
    const settings = { vocabulary: 'v0-pinned', writerRules: false, strict: false, noLayout: false }
    for (const all of [[], reports().slice(0, 1), reports()]) {
      const { document, text } = jsonReport(all, [], settings, [])
      expect(text).toBe(JSON.stringify(document, null, 2))
      expect(validate(document), errorsOf(validate)).toBe(true)
      expect(document).toMatchObject({ files: all, knownUnused: [], summary: { files: all.length } })
    }
  })

  it('refuses a report that breaks the shape', () => {
    const all = reports().slice(0, 1)
    const document = jsonReport(all, [], { vocabulary: 'v0-rc8', writerRules: false, strict: false, noLayout: false }).document as { files: { outcome: Record<string, unknown> }[] }
    ;(document.files[0] as { outcome: Record<string, unknown> }).outcome['verdict'] = 'maybe'
    expect(validate(document)).toBe(false)
  })
})
