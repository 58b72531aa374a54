// check's snapshot of a decoded record line (conformance/check/parsed-snapshot.ts): JSON.parse's output
// can hold only two lossless-JSON faults, negative zero and an infinity, and only a value holding one
// goes through the reference's full snapshot; every other value is passed on as itself, uncopied.
import { readFileSync } from 'node:fs'
import { afterAll, describe, expect, it } from 'vitest'
import { parsedSnapshot } from '../../conformance/check/parsed-snapshot.ts'
import { snapshotJson } from '../../reference/lossless-json.ts'
import { check, pipelineOutcome, tempFolder } from './support.ts'
import { HEADER, text } from './small-logs.ts'

const folder = tempFolder()
afterAll(() => folder.remove())

describe('parsed snapshot', () => {
  it('passes a value without negative zero or an infinity on as itself, not as a copy', () => {
    const texts = [
      '{"type":"turn/start","seq":0,"time":0,"data":{"turn":1}}',
      '{"a":[1,-1,0,2.5,-2.5e-300,1.7976931348623157e308,-1.7976931348623157e308],"b":{"c":[[{"d":null}]],"e":"-0","f":"1e400"},"g":true}',
      '{"__proto__":{"x":[0,-5]},"y":[]}',
      '[[],{}]',
      '"-0"',
      '12345678901234567890',
      '-12345678901234567890',
    ]
    for (const text of texts) {
      const value = JSON.parse(text) as unknown
      const snapshot = parsedSnapshot(value)
      expect(snapshot.value, text).toBe(value)
      expect(Object.keys(snapshot), text).toEqual(['value'])
    }
  })

  it('sends a value holding negative zero or an infinity, at any depth, through the full snapshot', () => {
    const texts: Array<[string, string]> = [
      ['-0', 'JSON_NEGATIVE_ZERO'],
      ['1e400', 'JSON_NON_FINITE'],
      ['-1e400', 'JSON_NON_FINITE'],
      ['{"a":-0}', 'JSON_NEGATIVE_ZERO'],
      ['{"a":{"b":[1,2,[3,-0.0]]}}', 'JSON_NEGATIVE_ZERO'],
      ['[0,1,2,1e400]', 'JSON_NON_FINITE'],
      ['[{"x":1},{"y":[-1e999]}]', 'JSON_NON_FINITE'],
      ['{"__proto__":{"x":-0}}', 'JSON_NEGATIVE_ZERO'],
      ['{"__proto__":-1e400}', 'JSON_NON_FINITE'],
      ['{"a":"-0","b":[-0]}', 'JSON_NEGATIVE_ZERO'],
      ['{"a":-0,"b":1e400}', 'JSON_NON_FINITE'],
      // Every other number zero: nothing else in the value could send it to the full snapshot.
      ['{"seq":0,"time":0,"x":[0,1e400]}', 'JSON_NON_FINITE'],
      ['{"seq":0,"time":0,"x":{"y":-1e400}}', 'JSON_NON_FINITE'],
    ]
    for (const [text, code] of texts) {
      const value = JSON.parse(text) as unknown
      const snapshot = parsedSnapshot(value)
      expect(snapshot.fault?.code, text).toBe(code)
      expect(snapshot, text).toEqual(snapshotJson(value))
    }
  })

  it('rejects, as the reference does, a record whose only numbers besides an infinity or negative zero are zeros', () => {
    for (const [number, code] of [['1e400', 'JSON_NON_FINITE'], ['-1e400', 'JSON_NON_FINITE'], ['-0', 'JSON_NEGATIVE_ZERO']] as const) {
      const lines = [HEADER, `{"type":"user/message","seq":0,"time":0,"data":{"id":"u0","role":"user","content":[{"type":"text","text":"hi","x":${number}}],"source":{"kind":"user"}},"surfaceOp":"append"}`]
      const file = folder.write(`zeros-${code}.jsonl`, text(lines))
      const report = check(file)
      expect(report.outcome).toEqual({ verdict: 'rejected', operation: 'load', code, seq: 0 })
      expect(report.outcome).toEqual(pipelineOutcome(readFileSync(file), 'raw'))
      expect(report.diagnostics).toMatchObject([{ severity: 'error', code, requirement: 'JSON-2', line: 2, seq: 0 }])
    }
  })
})

