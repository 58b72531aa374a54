// The builder notation (conformance/builder.ts): every head and modifier gives exactly the event the
// table of vectors/README.md ("Builder notation") describes. Implementations in other languages read
// that table, not the builder, so each expectation below is written out from the table by hand.
import { describe, expect, it } from 'vitest'
import { buildEvent, buildLog, HEAD_MODIFIERS, mergePatch } from '../conformance/builder.ts'
import { accepts, schemaValidator } from './support/schemas.ts'

const text = (value: unknown): Record<string, unknown> => ({ type: 'text', text: value })
/** The schema's view of a log item (schemas/vector-file.schema.json). */
const validItem = schemaValidator('vector-file', '#/$defs/LogItem')
const MODEL_SOURCE = { kind: 'model', provider: 'provider-a', model: 'model-a' }

describe('builder heads', () => {
  it('turn and step boundaries', () => {
    expect(buildEvent({ 'turn/start': 1 }, 0)).toStrictEqual({ type: 'turn/start', seq: 0, time: 1000, data: { turn: 1 } })
    expect(buildEvent({ 'step/start': [1, 2] }, 3)).toStrictEqual({ type: 'step/start', seq: 3, time: 1003, data: { turn: 1, step: 2 } })
    expect(buildEvent({ 'step/end': [1, 2] }, 4)).toStrictEqual({ type: 'step/end', seq: 4, time: 1004, data: { turn: 1, step: 2 } })
  })

  it('turn/end with each reason kind', () => {
    const reason = (argument: unknown[]): unknown => (buildEvent({ 'turn/end': argument }, 0) as { data: { turn: unknown; reason: unknown } }).data
    expect(reason([1, 'completed'])).toStrictEqual({ turn: 1, reason: { kind: 'completed' } })
    expect(reason([1, 'aborted'])).toStrictEqual({ turn: 1, reason: { kind: 'aborted', reason: { kind: 'user' } } })
    expect(reason([1, 'aborted', 'timeout'])).toStrictEqual({ turn: 1, reason: { kind: 'aborted', reason: { kind: 'timeout' } } })
    expect(reason([1, 'error'])).toStrictEqual({ turn: 1, reason: { kind: 'error', error: { message: 'provider failed', code: 'PROVIDER_ERROR' } } })
    expect(reason([1, 'error', 'RATE_LIMITED'])).toStrictEqual({ turn: 1, reason: { kind: 'error', error: { message: 'provider failed', code: 'RATE_LIMITED' } } })
    expect(reason([1, 'error', 503])).toStrictEqual({ turn: 1, reason: { kind: 'error', error: { message: 'provider failed', code: 503 } } })
    expect(buildEvent({ 'turn/end': [2, 'completed'] }, 7)).toMatchObject({ type: 'turn/end', seq: 7, time: 1007 })
  })

  it('user, with the id from its position unless given', () => {
    expect(buildEvent({ user: 'hi' }, 2)).toStrictEqual({
      type: 'user/message', seq: 2, time: 1002, surfaceOp: 'append',
      data: { id: 'u2', role: 'user', content: [text('hi')], source: { kind: 'user' } },
    })
    expect(buildEvent({ user: 'hi', id: 'mine' }, 2)).toMatchObject({ data: { id: 'mine' } })
  })

  it('checkpoint: a compact plugin message, text defaulted', () => {
    expect(buildEvent({ checkpoint: 'k1', replace: [0, 1], sources: [0, 1] }, 5)).toStrictEqual({
      type: 'user/message', seq: 5, time: 1005,
      surfaceOp: { op: 'replace', start: 0, end: 1 }, sourceEventSeqs: [0, 1],
      data: { id: 'c5', role: 'user', content: [text('summary of earlier work')], source: { kind: 'plugin', plugin: 'compact', compactionId: 'k1' } },
    })
    expect(buildEvent({ checkpoint: 'k1', text: 'short', id: 'x' }, 5)).toMatchObject({ data: { id: 'x', content: [text('short')] } })
  })

  it('assistant: text block first, then one tool-call per id; neither gives empty content', () => {
    expect(buildEvent({ assistant: [1, 1], text: 'ok', calls: ['c1', 'c2'] }, 3)).toStrictEqual({
      type: 'assistant/message', seq: 3, time: 1003, surfaceOp: 'append',
      data: {
        turn: 1, step: 1,
        message: {
          id: 'a3', role: 'assistant', source: MODEL_SOURCE,
          content: [text('ok'), { type: 'tool-call', id: 'c1', name: 'tool', arguments: '{}' }, { type: 'tool-call', id: 'c2', name: 'tool', arguments: '{}' }],
        },
      },
    })
    expect(buildEvent({ assistant: [1, 1] }, 0)).toMatchObject({ data: { message: { id: 'a0', content: [] } } })
    expect(buildEvent({ assistant: [1, 1], id: 'm' }, 0)).toMatchObject({ data: { message: { id: 'm' } } })
  })

  it('chunk: a text delta, x unless given', () => {
    expect(buildEvent({ chunk: [1, 2] }, 4)).toStrictEqual({
      type: 'assistant/chunk', seq: 4, time: 1004, data: { turn: 1, step: 2, chunk: { type: 'text-delta', index: 0, text: 'x' } },
    })
    expect(buildEvent({ chunk: [1, 2], text: 'yz' }, 4)).toMatchObject({ data: { chunk: { text: 'yz' } } })
  })

  it('call and result', () => {
    expect(buildEvent({ call: [1, 1, 'c1'] }, 2)).toStrictEqual({
      type: 'tool/call', seq: 2, time: 1002, data: { turn: 1, step: 1, callId: 'c1', name: 'tool', arguments: '{}' },
    })
    expect(buildEvent({ result: [1, 1, 'c1'] }, 3)).toStrictEqual({
      type: 'tool/result', seq: 3, time: 1003, surfaceOp: 'append',
      data: {
        turn: 1, step: 1,
        message: { id: 'r3', role: 'user', content: [{ type: 'tool-result', toolCallId: 'c1', content: [text('ok')] }], source: { kind: 'tool', callId: 'c1' } },
      },
    })
    expect(buildEvent({ result: [1, 1, 'c1'], text: 'no', isError: true, error: 'E_TOOL', id: 'q' }, 3)).toMatchObject({
      data: {
        message: { id: 'q', content: [{ type: 'tool-result', toolCallId: 'c1', content: [text('no')], isError: true }] },
        error: { name: 'ToolError', code: 'E_TOOL' },
      },
    })
    const plain = buildEvent({ result: [1, 1, 'c1'] }, 3) as { data: Record<string, unknown> & { message: { content: Record<string, unknown>[] } } }
    expect('error' in plain.data || 'isError' in plain.data.message.content[0]!).toBe(false)
  })

  it('compaction brackets, summary and prune', () => {
    expect(buildEvent({ 'compaction/start': ['k1', null] }, 0)).toStrictEqual({ type: 'compaction/start', seq: 0, time: 1000, data: { compactionId: 'k1', turn: null } })
    expect(buildEvent({ 'compaction/end': ['k1', 2] }, 1)).toStrictEqual({ type: 'compaction/end', seq: 1, time: 1001, data: { compactionId: 'k1', turn: 2 } })
    expect(buildEvent({ 'compaction/end': ['k1', 2], error: { kind: 'failed' } }, 1)).toMatchObject({ data: { error: { kind: 'failed' } } })
    expect(buildEvent({ 'compaction/summary': ['k1', [2, 3, 5]] }, 6)).toStrictEqual({
      type: 'compaction/summary', seq: 6, time: 1006,
      data: {
        compactionId: 'k1', summary: [text('summary of earlier work')], shadowedRange: { start: 2, end: 5 }, shadowedSeqs: [2, 3, 5],
        shadowedTokenCount: 1000, provider: 'provider-a', model: 'model-a',
      },
    })
    expect(buildEvent({ 'compaction/summary': ['k1', [2]], tokens: 7 }, 6)).toMatchObject({ data: { shadowedRange: { start: 2, end: 2 }, shadowedTokenCount: 7 } })
    expect(buildEvent({ 'compaction/prune': [1, 4] }, 5)).toStrictEqual({
      type: 'compaction/prune', seq: 5, time: 1005, data: { shadowedRange: { start: 1, end: 4 }, shadowedSeqs: [1, 4], shadowedTokenCount: 1000 },
    })
    expect(buildEvent({ 'compaction/prune': 4 }, 5)).toMatchObject({ data: { shadowedRange: { start: 4, end: 4 }, shadowedSeqs: [4] } })
    expect(buildEvent({ 'compaction/prune': [1], tokens: 3 }, 5)).toMatchObject({ data: { shadowedRange: { start: 1, end: 1 }, shadowedTokenCount: 3 } })
  })

  it('request header and context', () => {
    expect(buildEvent({ header: {} }, 1)).toStrictEqual({
      type: 'request/header', seq: 1, time: 1001, data: { header: { config: { provider: 'provider-a', model: 'model-a' } }, reason: 'initial' },
    })
    expect(buildEvent({ header: { reason: 'changed', systemPrompt: 'be brief', config: { provider: 'p', model: 'm', maxTokens: 9 } } }, 1)).toMatchObject({
      data: { header: { config: { provider: 'p', model: 'm', maxTokens: 9 }, systemPrompt: 'be brief' }, reason: 'changed' },
    })
    const built = buildEvent({ header: { reason: 'changed' } }, 1) as { data: { header: Record<string, unknown> } }
    expect(Object.keys(built.data.header)).toStrictEqual(['config'])
    expect(buildEvent({ context: {} }, 2)).toStrictEqual({ type: 'request/context', seq: 2, time: 1002, data: {} })
    expect(buildEvent({ context: { provider: 'p', model: 'm', tools: [] } }, 2)).toMatchObject({ data: { provider: 'p', model: 'm', tools: [] } })
    expect(buildEvent({ context: null }, 2)).toMatchObject({ data: { provider: 'provider-a', model: 'model-a' } })
  })

  it('todo and end-seed', () => {
    expect(buildEvent({ todo: null }, 0)).toStrictEqual({ type: 'todo/write', seq: 0, time: 1000, data: { todos: [] } })
    expect(buildEvent({ todo: [{ content: 'a', status: 'pending' }] }, 0)).toStrictEqual({
      type: 'todo/write', seq: 0, time: 1000, data: { todos: [{ content: 'a', status: 'pending' }] },
    })
    expect(buildEvent({ 'end-seed': {} }, 9)).toStrictEqual({ type: 'session/end-seed', seq: 9, time: 1009, data: {} })
  })

  it('event: the mapping as given, seq and time filled in only when absent', () => {
    expect(buildEvent({ event: { type: 'x/y', data: { a: 1 } } }, 4)).toStrictEqual({ seq: 4, time: 1004, type: 'x/y', data: { a: 1 } })
    expect(buildEvent({ event: { type: 'x/y', seq: 'odd', time: null, data: {} } }, 4)).toStrictEqual({ type: 'x/y', seq: 'odd', time: null, data: {} })
    expect(buildEvent({ event: { type: 'x/y', data: {} }, seq: 8, time: 5 }, 4)).toStrictEqual({ type: 'x/y', seq: 8, time: 5, data: {} })
    expect(buildEvent({ event: { type: 'user/message', data: {} } }, 0)).not.toHaveProperty('surfaceOp')
  })

  it('record: taken verbatim, whatever it is', () => {
    expect(buildEvent({ record: { type: 'x/y' } }, 3)).toStrictEqual({ type: 'x/y' })
    expect(buildEvent({ record: 'line' }, 3)).toBe('line')
    expect(buildEvent({ record: null }, 3)).toBeNull()
    expect(buildEvent({ record: [1] }, 3)).toStrictEqual([1])
  })

  it('gives surfaceOp append only to the three surface types', () => {
    const withOp = ['user', 'checkpoint', 'assistant', 'result']
    const items: Record<string, unknown>[] = [
      { user: 'u' }, { checkpoint: 'k' }, { assistant: [1, 1] }, { result: [1, 1, 'c'] }, { 'turn/start': 1 }, { 'turn/end': [1, 'completed'] },
      { 'step/start': [1, 1] }, { 'step/end': [1, 1] }, { chunk: [1, 1] }, { call: [1, 1, 'c'] }, { 'compaction/start': ['k', 1] },
      { 'compaction/summary': ['k', [0]] }, { 'compaction/end': ['k', 1] }, { 'compaction/prune': [0] }, { header: {} }, { context: {} },
      { todo: [] }, { 'end-seed': {} },
    ]
    const appended = items.filter((item) => (buildEvent(item, 0) as Record<string, unknown>)['surfaceOp'] === 'append').map((item) => Object.keys(item)[0])
    expect(appended).toStrictEqual(withOp)
  })
})

describe('builder modifiers', () => {
  it('replace, sources, surfaceOp and ignorable go on the envelope; surfaceOp also on log-only events', () => {
    expect(buildEvent({ user: 's', replace: [1, 3], sources: [1, 2, 3] }, 4)).toMatchObject({ surfaceOp: { op: 'replace', start: 1, end: 3 }, sourceEventSeqs: [1, 2, 3] })
    expect(buildEvent({ user: 's', surfaceOp: 'bogus' }, 0)).toMatchObject({ surfaceOp: 'bogus' })
    expect(buildEvent({ 'turn/start': 1, surfaceOp: 'append' }, 0)).toMatchObject({ surfaceOp: 'append' })
    expect(buildEvent({ 'step/start': [1, 1], ignorable: true }, 0)).toMatchObject({ ignorable: true })
    expect(buildEvent({ user: 's', sources: null }, 0)).toMatchObject({ sourceEventSeqs: null })
  })

  it('seq and time replace the defaults; a message id keeps the position', () => {
    expect(buildEvent({ user: 'x', seq: 9, time: 77 }, 2)).toMatchObject({ seq: 9, time: 77, data: { id: 'u2' } })
    expect(buildEvent({ result: [1, 1, 'c'], seq: 0 }, 5)).toMatchObject({ seq: 0, data: { message: { id: 'r5' } } })
  })

  it('patch merges mappings member by member and replaces anything else', () => {
    expect(buildEvent({ user: 'x', patch: { source: { kind: 'system' }, extra: 1 } }, 0)).toMatchObject({
      data: { id: 'u0', role: 'user', content: [text('x')], source: { kind: 'system' }, extra: 1 },
    })
    expect(buildEvent({ user: 'x', patch: { content: { a: 1 } } }, 0)).toMatchObject({ data: { content: { a: 1 } } })
    expect(buildEvent({ 'turn/start': 1, patch: null }, 0)).toMatchObject({ data: null })
    expect(buildEvent({ 'end-seed': {}, patch: { note: 'n' } }, 0)).toMatchObject({ data: { note: 'n' } })
  })

  it('mergePatch keeps a member named __proto__ as data, patched or merged', () => {
    const patch = JSON.parse('{"__proto__": {"kept": true}, "source": {"__proto__": 1}}') as unknown
    const merged = mergePatch({ source: { kind: 'user' } }, patch) as Record<string, unknown>
    expect(Object.getPrototypeOf(merged)).toBe(Object.prototype)
    expect(Object.hasOwn(merged, '__proto__')).toBe(true)
    expect(JSON.stringify(merged)).toBe('{"source":{"kind":"user","__proto__":1},"__proto__":{"kept":true}}')
  })

  it('mergePatch does not share the patch with its result', () => {
    const patch = { a: { b: [1] } }
    const merged = mergePatch({ a: 'old' }, patch) as { a: { b: number[] } }
    merged.a.b.push(2)
    expect(patch.a.b).toStrictEqual([1])
    expect(mergePatch({ a: { x: 1, y: 2 } }, { a: { y: 3 } })).toStrictEqual({ a: { x: 1, y: 3 } })
  })

  it('a raw event and a record are copies, not the vector document itself', () => {
    const raw = { type: 'x/y', data: { list: [1] } }
    const built = buildEvent({ event: raw }, 0) as { data: { list: number[] } }
    built.data.list.push(2)
    const record = { type: 'x/y' }
    expect(buildEvent({ record }, 0)).not.toBe(record)
    expect(raw.data.list).toStrictEqual([1])
  })
})

describe('builder errors', () => {
  it('each head takes the envelope modifiers and those its row of the table names; event only seq and time; record none', () => {
    const envelope = ['replace', 'sources', 'surfaceOp', 'ignorable', 'seq', 'time', 'patch']
    const own: Record<string, string[]> = {
      user: ['id'], checkpoint: ['id', 'text'], assistant: ['id', 'text', 'calls'], chunk: ['text'],
      result: ['id', 'text', 'isError', 'error'], 'compaction/summary': ['tokens'], 'compaction/end': ['error'], 'compaction/prune': ['tokens'],
    }
    const heads = ['turn/start', 'turn/end', 'step/start', 'step/end', 'user', 'checkpoint', 'assistant', 'chunk', 'call', 'result',
      'compaction/start', 'compaction/summary', 'compaction/end', 'compaction/prune', 'header', 'context', 'todo', 'end-seed']
    const expected = { ...Object.fromEntries(heads.map((head) => [head, [...envelope, ...(own[head] ?? [])].sort()])), event: ['seq', 'time'], record: [] }
    expect(Object.fromEntries(Object.entries(HEAD_MODIFIERS).map(([head, modifiers]) => [head, [...modifiers].sort()]))).toStrictEqual(expected)
  })

  it.each([
    [[], /a log item must be a mapping/],
    [null, /a log item must be a mapping/],
    [{}, /expected exactly one head key, found \[\]/],
    [{ user: 'a', 'turn/start': 1 }, /expected exactly one head key, found \["user","turn\/start"\]/],
    [{ text: 'a', id: 'b' }, /expected exactly one head key, found \[\]/],
    [{ greeting: 'a' }, /unknown builder head "greeting"/],
    [{ toString: 'a' }, /unknown builder head "toString"/],
    [{ user: 'a', foo: 1 }, /^unknown builder head "foo"$/],
    [{ user: 'a', tokens: 5 }, /user takes no modifier "tokens" \(it takes replace, sources, surfaceOp, ignorable, seq, time, patch, id\)/],
    [{ 'turn/end': [1, 'error'], error: 'E', text: 't' }, /turn\/end takes no modifier "error", "text" /],
    [{ event: { type: 'x/y' }, patch: {} }, /event takes no modifier "patch" \(it takes seq, time\)/],
    [{ record: {}, seq: 1 }, /record takes no modifier "seq" \(it takes none\)/],
    [{ event: 'x' }, /event needs a mapping/],
    [{ 'step/start': 1 }, /^step\/start takes 2 value\(s\), got 1$/],
    [{ 'step/end': [1, 2, 3] }, /^step\/end takes 2 value\(s\), got \[1,2,3\]$/],
    [{ result: [1, 1] }, /^result takes 3 value\(s\), got \[1,1\]$/],
    [{ call: [1, 1, 'c', 'd'] }, /^call takes 3 value\(s\)/],
    [{ assistant: [1] }, /^assistant takes 2 value\(s\)/],
    [{ chunk: [1] }, /^chunk takes 2 value\(s\)/],
    [{ 'turn/end': [1] }, /^turn\/end takes 2 to 3 value\(s\), got \[1\]$/],
    [{ 'turn/end': [1, 'error', 'E', 'x'] }, /^turn\/end takes 2 to 3 value\(s\)/],
    [{ 'compaction/start': ['k'] }, /^compaction\/start takes 2 value\(s\)/],
    [{ 'compaction/end': ['k'] }, /^compaction\/end takes 2 value\(s\)/],
    [{ 'compaction/summary': ['k'] }, /^compaction\/summary takes 2 value\(s\)/],
    [{ 'compaction/summary': ['k', 3] }, /^compaction\/summary needs a list of at least one seq as its second value, got 3$/],
    [{ 'compaction/summary': ['k', []] }, /^compaction\/summary needs a list of at least one seq as its second value, got \[\]$/],
    [{ user: 'a', replace: [1] }, /^replace takes 2 value\(s\), got \[1\]$/],
    [{ user: 'a', replace: [1, 2, 3] }, /^replace takes 2 value\(s\)/],
    [{ 'compaction/prune': [] }, /^compaction\/prune takes at least 1 value\(s\), got \[\]$/],
  ])('%j is refused, by the builder and by the schema', (item, message) => {
    expect(() => buildEvent(item, 0)).toThrow(message)
    expect(validItem(item)).toBe(false)
  })

  it('buildLog names the first malformed item by its index, after building the ones before', () => {
    expect(buildLog([{ user: 'a' }, { 'step/start': [1] }, { nothing: 1 }])).toStrictEqual({ error: { index: 1, message: 'step/start takes 2 value(s), got [1]' } })
    expect(buildLog([{ user: 'a' }, { 'turn/start': 1 }])).toStrictEqual({ events: [buildEvent({ user: 'a' }, 0), buildEvent({ 'turn/start': 1 }, 1)] })
  })
})

describe('the vector-file schema (LogItem) and the builder', () => {
  const builds = (item: unknown): boolean => accepts(() => buildEvent(item, 0))
  const ARGUMENTS: unknown[] = [1, 'x', null, {}, [], [1], [1, 2], [1, 2, 3], [1, 2, 3, 4], ['k', [1]], ['k', []], ['k', [1], 3]]
  const MODIFIER_VALUES: unknown[] = [1, [], [1], [1, 2], [1, 2, 3], null]
  const allModifiers = [...new Set(Object.values(HEAD_MODIFIERS).flat())]

  it('refuse and accept the same items: every head with arguments of each arity, with and without each modifier', () => {
    const items: unknown[] = [{}, { text: 'x' }, { user: 'a', 'turn/start': 1 }, 'x', [], null]
    for (const head of [...Object.keys(HEAD_MODIFIERS), 'greeting']) {
      for (const argument of ARGUMENTS) {
        items.push({ [head]: argument })
        for (const modifier of allModifiers) for (const value of MODIFIER_VALUES) items.push({ [head]: argument, [modifier]: value })
      }
    }
    const disagreements = items.filter((item) => validItem(item) !== builds(item)).map((item) => `${JSON.stringify(item)}: schema ${validItem(item)}, builder ${builds(item)}`)
    expect(disagreements).toStrictEqual([])
  })
})
