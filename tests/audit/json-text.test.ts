// The audit's JSON text of log values (conformance/audit/json-text.ts): JSON.stringify's text at any
// depth, where JSON.stringify itself runs out of stack.
import { describe, expect, it } from 'vitest'
import { jsonText } from '../../conformance/audit/json-text.ts'
import { rowOf, artifact, auditOf, goodTurn, requestHeader } from './logs.ts'

const DEPTH = 100_000

describe('jsonText', () => {
  it('writes a value nested deeper than JSON.stringify can follow, members after the deep one included', () => {
    const leaf = JSON.parse('{"b":[1,"x\\"y\\u0000",null,true,{},[]],"__proto__":2,"":-1.5e-7}') as unknown
    let value: unknown = leaf
    for (let level = 0; level < DEPTH; level += 1) value = { a: value, b: [level % 2 === 0] }
    expect(() => JSON.stringify(value)).toThrow(RangeError)
    let expected = JSON.stringify(leaf)
    for (let level = 0; level < DEPTH; level += 1) expected = `{"a":${expected},"b":[${level % 2 === 0}]}`
    expect(jsonText(value)).toBe(expected)
  })
})

describe('audit of a tool result whose blocks are nested deeper than a recursive walk can follow', () => {
  it('reads the text at the bottom', () => {
    const marker = 'DEEP-BLOCKS'
    const events = goodTurn().map(event => (event.type === 'tool/result'
      ? { ...event, data: { ...(event.data as object), message: { ...((event.data as { message: object }).message), content: [{ type: 'tool-result', toolCallId: 'c1', content: [marker] }] } } }
      : event))
    const bytes = new TextDecoder().decode(artifact(events))
    const deep = `${'{"type":"tool-result","content":['.repeat(DEPTH)}"${'x'.repeat(4000)}"${']}'.repeat(DEPTH)}`
    const report = auditOf(new TextEncoder().encode(bytes.replace(JSON.stringify(marker), deep)))
    expect(report.log.rejection).toBeNull()
    // The 4,000 bytes at the bottom are what the tool result adds to the transcript: 1,000 estimated tokens.
    const shallow = auditOf(artifact(events.map(event => (event.type === 'tool/result' ? JSON.parse(JSON.stringify(event).replace(JSON.stringify(marker), `"${'x'.repeat(4000)}"`)) as typeof event : event))))
    expect(report.budget!.tokens.transcriptMessages).toBe(shallow.budget!.tokens.transcriptMessages)
  })
})

describe('audit of a request header whose tools are nested deeper than JSON.stringify can follow', () => {
  it('counts the tools whole', () => {
    const marker = 'DEEP-TOOLS'
    const events = goodTurn().map(event => (event.type === 'request/header' ? requestHeader(event.seq, [marker]) : event))
    const bytes = new TextDecoder().decode(artifact(events))
    const deep = `${'{"a":'.repeat(DEPTH)}1${'}'.repeat(DEPTH)}`
    const report = auditOf(new TextEncoder().encode(bytes.replace(JSON.stringify(marker), deep)))
    // The estimate: one token per 4 bytes of `[` + the deep object + `]`.
    expect(report.budget!.tokens.toolSchemas).toBe(Math.ceil((6 * DEPTH + 3) / 4))
    expect(rowOf(report, 'budget').verdict).toBe('pass')
  })
})
