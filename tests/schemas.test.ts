// The JSON Schemas in schemas/: they compile in Ajv's strict mode, vocabulary.json agrees with them,
// every JSON example in spec/*.md validates (or fails) as its fence says, a few hand-written cases
// per schema, and every line of the upstream rc8 corpus (when ../shared/corpus is present).
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js'
import { describe, expect, it } from 'vitest'
import type { AuditBracketOutcome } from '../generated/types/index.ts'
import type { BracketOutcome } from '../reference/compaction.ts'
import { decodeTagged } from '../conformance/tagged-values.ts'
import { loadVectorCases } from '../conformance/vector-cases.ts'
import { reference } from '../reference/index.ts'
import { extractExamples, readSpecExamples } from './support/spec-examples.ts'

const projectRoot = fileURLToPath(new URL('..', import.meta.url))
const schemaDir = join(projectRoot, 'schemas')
const specDir = join(projectRoot, 'spec')
const corpusDir = resolve(projectRoot, '../shared/corpus')
const ID_BASE = 'https://dsh-session-conformance.dev/schemas/v0/'
const DRAFT_2020_12 = 'https://json-schema.org/draft/2020-12/schema'

type SchemaDocument = { $id: string; $schema: string; title: string; description: string; $defs?: object }

const schemaFiles = readdirSync(schemaDir).filter((name) => name.endsWith('.schema.json')).sort()
const schemas = new Map<string, SchemaDocument>(
  schemaFiles.map((file) => [file, JSON.parse(readFileSync(join(schemaDir, file), 'utf8')) as SchemaDocument]),
)
const readJson = (file: string): unknown => JSON.parse(readFileSync(join(schemaDir, file), 'utf8'))

function createAjv(): Ajv2020 {
  const ajv = new Ajv2020({ strict: true, allErrors: true })
  for (const schema of schemas.values()) ajv.addSchema(schema)
  return ajv
}

const ajv = createAjv()

/** The compiled validator of schemas/<name>.schema.json at `fragment` ('' for the root). */
function validatorFor(name: string, fragment = ''): ValidateFunction {
  const validate = ajv.getSchema(`${ID_BASE}${name}.schema.json${fragment}`)
  if (validate === undefined) throw new Error(`no schema ${name}.schema.json${fragment}`)
  return validate
}

function errorsOf(validate: ValidateFunction): string {
  return (validate.errors ?? []).slice(0, 5).map((error) => `${error.instancePath || '/'} ${error.message}`).join('; ')
}

describe('schema files', () => {
  it.each(schemaFiles)('%s has $schema, $id, title and description', (file) => {
    const schema = schemas.get(file)
    expect(schema?.$schema).toBe(DRAFT_2020_12)
    expect(schema?.$id).toBe(`${ID_BASE}${file}`)
    expect(typeof schema?.title).toBe('string')
    expect(typeof schema?.description).toBe('string')
  })

  it.each(schemaFiles)('%s compiles in strict mode, root and every $def', (file) => {
    const strict = createAjv()
    const defs = Object.keys(schemas.get(file)?.$defs ?? {})
    for (const pointer of ['', ...defs.map((name) => `#/$defs/${name}`)]) {
      expect(typeof strict.getSchema(`${ID_BASE}${file}${pointer}`), `${file}${pointer}`).toBe('function')
    }
  })
})

describe('vocabulary.json', () => {
  const vocabulary = readJson('vocabulary.json') as {
    versions: Record<string, { knownEventTypes: string[]; surfaceEventTypes: string[] }>
  }
  const pinned = vocabulary.versions['v0-pinned']
  const rc8 = vocabulary.versions['v0-rc8']
  const team = ['team/member', 'team/message/delivered', 'team/message/queued', 'team/task']
  const enumOf = (file: string, def: string): string[] =>
    ((readJson(file) as { $defs: Record<string, { enum: string[] }> }).$defs[def]?.enum ?? [])

  it('validates against vocabulary.schema.json', () => {
    const validate = validatorFor('vocabulary')
    expect(validate(vocabulary), errorsOf(validate)).toBe(true)
  })

  it('has 44 pinned types and v0-rc8 = v0-pinned plus the four team/* types', () => {
    expect(pinned?.knownEventTypes).toHaveLength(44)
    expect([...(rc8?.knownEventTypes ?? [])].sort()).toEqual([...(pinned?.knownEventTypes ?? []), ...team].sort())
  })

  it('lists surface types that are known types and match the envelope schema', () => {
    for (const version of Object.values(vocabulary.versions)) {
      expect(version.knownEventTypes).toEqual(expect.arrayContaining(version.surfaceEventTypes))
      expect(version.surfaceEventTypes).toEqual(enumOf('envelope.schema.json', 'SurfaceEventType'))
    }
  })

  it('names exactly the types whose payloads event.schema.json shapes (v0-rc8)', () => {
    expect(enumOf('event.schema.json', 'KnownEventType').sort()).toEqual([...(rc8?.knownEventTypes ?? [])].sort())
  })
})

describe('compaction outcomes in the audit report', () => {
  // npm run typecheck, not vitest, holds the schema's type and the reference's to one union of strings.
  const sameAsReference: [AuditBracketOutcome, BracketOutcome] extends [BracketOutcome, AuditBracketOutcome] ? true : false = true
  void sameAsReference

  it('are the six of the COMP-16 table, in its order, and the outcomes the reference gives over the vectors', () => {
    const chapter = readFileSync(join(specDir, '13-compaction.md'), 'utf8')
    const section = chapter.slice(chapter.indexOf('### COMP-16'), chapter.indexOf('### COMP-17'))
    const table = [...section.matchAll(/^\| `([a-z-]+)` \|/gm)].map((match) => match[1])
    expect(table).toHaveLength(6)
    const schema = readJson('audit-report.schema.json') as { $defs: { AuditBracketOutcome: { enum: string[] } } }
    expect(schema.$defs.AuditBracketOutcome.enum).toEqual(table)
    const given = new Set(loadVectorCases().flatMap((vector) => vector.steps)
      .filter((step) => step.operation === 'compactionState')
      .flatMap((step) => {
        const result = reference.compactionState(decodeTagged(step.input) as Parameters<typeof reference.compactionState>[0])
        return result.ok ? (result.value as { brackets: { outcome: string }[] }).brackets.map((bracket) => bracket.outcome) : []
      }))
    expect([...given].sort()).toEqual([...table].sort())
  })
})

describe('spec example extraction', () => {
  const markdown = [
    '```json example=event',
    '{"a":1}',
    '```',
    '```json',
    '{"ignored":true}',
    '```',
    '````markdown',
    '```json example=event',
    '{"inside":"another fence"}',
    '```',
    '````',
    '  ```json invalid-example=message#/$defs/UserMessage',
    '  {"b":2}',
    '  ```',
  ].join('\n')

  it('finds example and invalid-example fences with their fragments, and nothing else', () => {
    expect(extractExamples(markdown, 'x.md')).toEqual([
      { file: 'x.md', line: 1, expect: 'valid', schema: 'event', fragment: '', text: '{"a":1}' },
      {
        file: 'x.md',
        line: 12,
        expect: 'invalid',
        schema: 'message',
        fragment: '#/$defs/UserMessage',
        text: '  {"b":2}',
      },
    ])
  })
})

describe('spec examples', () => {
  const examples = readSpecExamples(specDir)
  const title = (example: (typeof examples)[number]): string =>
    `${example.file}:${example.line} ${example.expect === 'valid' ? 'example' : 'invalid-example'}=${example.schema}${example.fragment}`

  it('are found in spec/*.md', () => {
    expect(examples.length).toBeGreaterThan(50)
  })

  it.each(examples.map((example) => [title(example), example] as const))('%s', (_, example) => {
    expect(schemas.has(`${example.schema}.schema.json`), `no schemas/${example.schema}.schema.json`).toBe(true)
    const value: unknown = JSON.parse(example.text)
    const validate = validatorFor(example.schema, example.fragment)
    const valid = validate(value)
    if (example.expect === 'valid') expect(valid, errorsOf(validate)).toBe(true)
    else expect(valid, 'an invalid-example must fail its schema').toBe(false)
  })
})

// [what the case shows, fragment ('' = root), value, whether it validates]
type SanityCase = [string, string, unknown, boolean]

const userMessage = { id: 'm-1', role: 'user', content: [{ type: 'text', text: 'hi' }], source: { kind: 'user' } }
const toolResultMessage = {
  id: 'm-2',
  role: 'user',
  content: [{ type: 'tool-result', toolCallId: 'c-1', content: [{ type: 'text', text: 'ok' }] }],
  source: { kind: 'tool', callId: 'c-1' },
}
const assistantMessage = {
  id: 'm-3',
  role: 'assistant',
  content: [{ type: 'text', text: 'done' }],
  source: { kind: 'model', provider: 'deepseek', model: 'deepseek-v4-flash' },
}
const event = (type: string, data: unknown, extra: object = {}): object => ({ type, seq: 3, time: 10, data, ...extra })
const header = { version: 0, id: 's-1', createdAt: 1 }
const teamMember = { id: 's-2', name: 'reviewer', description: 'reads diffs', provider: 'p', context: 'fresh', phase: 'active' }
const { phase: _phase, ...teamMemberWithoutPhase } = teamMember
const summary = {
  compactionId: 'c-1',
  summary: [{ type: 'text', text: 'short' }],
  shadowedRange: { start: 4, end: 4 },
  shadowedSeqs: [4],
  shadowedTokenCount: 10,
  provider: 'p',
  model: 'm',
}
const bracket = { startSeq: 3, endSeq: 9, outcome: 'completed', compactionId: 'c-1', error: null }
const replacement = {
  seq: 5, time: 10, type: 'tool/result', kind: 'tool-result-rewrite', start: 4, end: 4, shadowedSeqs: [4], citedSeqs: [],
  compactionId: null, bracketOutcome: null, recordedShadowedTokenCount: null, text: 't', tokens: 1, shadowed: [], shadowedTokens: 0, absentTerms: [],
}
const textRow = { type: 'text-chunks', seq0: 5, time0: 100, data: { turn: 1, step: 1, index: 0, dt: [1, -2], texts: ['a', 'b', 'c'] } }

const sanity: Record<string, SanityCase[]> = {
  common: [
    ['the largest safe integer', '#/$defs/SafeInteger', 9007199254740991, true],
    ['2^53 is not safe', '#/$defs/SafeInteger', 9007199254740992, false],
    ['a fraction is no seq', '#/$defs/Seq', 1.5, false],
    ['a seq is not negative', '#/$defs/Seq', -1, false],
    ['the empty string is not NonEmptyString', '#/$defs/NonEmptyString', '', false],
    ['nested JSON', '#/$defs/JsonValue', { a: [1, null, true, 'x', { b: {} }] }, true],
  ],
  'surface-op': [
    ['append', '', 'append', true],
    ['the string "replace"', '', 'replace', false],
    ['a replace object', '', { op: 'replace', start: 1, end: 2 }, true],
    ['a replace object with an extra key', '', { op: 'replace', start: 1, end: 2, note: 'x' }, false],
    ['a replace without end', '', { op: 'replace', start: 1 }, false],
    ['a negative start', '', { op: 'replace', start: -1, end: 2 }, false],
    ['null', '', null, false],
  ],
  envelope: [
    ['a log-only event', '', event('turn/start', { turn: 1 }), true],
    ['surfaceOp on turn/start', '', event('turn/start', { turn: 1 }, { surfaceOp: 'append' }), false],
    ['sourceEventSeqs: null on a log-only event', '', event('plan/mode', {}, { sourceEventSeqs: null }), false],
    ['user/message without surfaceOp', '', event('user/message', userMessage), false],
    ['an empty source list on assistant/message', '', event('assistant/message', {}, { surfaceOp: 'append', sourceEventSeqs: [] }), true],
    ['an empty source list on tool/result', '', event('tool/result', {}, { surfaceOp: 'append', sourceEventSeqs: [] }), false],
    ['a duplicate source seq', '', event('user/message', {}, { surfaceOp: 'append', sourceEventSeqs: [1, 1] }), false],
    ['an unknown top-level key', '', event('turn/start', { turn: 1 }, { meta: 1 }), false],
    ['ignorable: false', '', event('x/y', null, { ignorable: false }), false],
    ['ignorable: true with null data', '', event('x/y', null, { ignorable: true }), true],
    ['no data', '', { type: 'x/y', seq: 0, time: 0 }, false],
    ['the storage tag text-chunks as type (ENV-3)', '', event('text-chunks', {}), false],
    ['the storage tag reasoning-chunks as type, marked ignorable', '', event('reasoning-chunks', {}, { ignorable: true }), false],
    ['the storage tag tool-call-chunks as type', '', event('tool-call-chunks', {}), false],
    ['a type that only contains a storage tag', '', event('acme/text-chunks', {}), true],
    ['the empty type', '', event('', {}), true],
  ],
  content: [
    ['a text block', '', { type: 'text', text: 'a' }, true],
    ['a text block without text', '', { type: 'text' }, false],
    ['a block of an unknown type (open union)', '', { type: 'x-widget', anything: [1] }, true],
    ['an image with another media type', '', { type: 'image', attachment: { attachmentId: 'a', mediaType: 'image/bmp', bytes: 1, width: 1, height: 1 } }, false],
    ['a tool-call without arguments', '', { type: 'tool-call', id: 'c', name: 'bash' }, false],
    ['a nested tool result', '', toolResultMessage.content[0], true],
  ],
  message: [
    ['a user message', '#/$defs/UserMessage', userMessage, true],
    ['a user message with role assistant', '#/$defs/UserMessage', { ...userMessage, role: 'assistant' }, false],
    ['an empty id', '#/$defs/UserMessage', { ...userMessage, id: '' }, false],
    ['a source of an unknown kind (open union)', '#/$defs/MessageSource', { kind: 'x-bot', any: 1 }, true],
    ['a source with an empty kind', '#/$defs/MessageSource', { kind: '' }, false],
    ['a snapshot form without sections', '#/$defs/MessageSource', { kind: 'plugin', plugin: 'p', form: 'snapshot' }, false],
    ['the compaction checkpoint source', '#/$defs/MessageSource', { kind: 'plugin', plugin: 'compact', compactionId: 'c-1' }, true],
    ['a compact source without compactionId', '#/$defs/MessageSource', { kind: 'plugin', plugin: 'compact' }, false],
    ['a compact source with an empty compactionId', '#/$defs/MessageSource', { kind: 'plugin', plugin: 'compact', compactionId: '' }, false],
    ['a compact source with a sourceCommandId', '#/$defs/MessageSource', { kind: 'plugin', plugin: 'compact', compactionId: 'c-1', sourceCommandId: 'cmd-1' }, true],
    ['a compact source with an empty sourceCommandId (COMP-1)', '#/$defs/MessageSource', { kind: 'plugin', plugin: 'compact', compactionId: 'c-1', sourceCommandId: '' }, false],
    ['a compact source with a null sourceCommandId (COMP-1)', '#/$defs/MessageSource', { kind: 'plugin', plugin: 'compact', compactionId: 'c-1', sourceCommandId: null }, false],
    ['clientTimeZone without rpcId', '#/$defs/MessageSource', { kind: 'user', clientTimeZone: 'UTC' }, false],
    ['an assistant message with a plugin source', '#/$defs/AssistantMessage', { ...assistantMessage, source: { kind: 'plugin', plugin: 'p' } }, false],
    ['an assistant message with an empty provider', '#/$defs/AssistantMessage', { ...assistantMessage, source: { kind: 'model', provider: '', model: 'm' } }, false],
    ['a tool result with two blocks', '#/$defs/ToolResultMessage', { ...toolResultMessage, content: [...toolResultMessage.content, ...toolResultMessage.content] }, false],
  ],
  llm: [
    ['a chunk of an unknown type (closed union)', '#/$defs/StreamChunk', { type: 'ping' }, false],
    ['a finish of an unknown kind (open union)', '#/$defs/StreamChunk', { type: 'finish', reason: { kind: 'content-filter' } }, true],
    ['a negative token count', '#/$defs/TokenUsage', { inputTokens: -1, outputTokens: 0 }, false],
    ['an unknown adapter-default flag', '#/$defs/LlmCallConfigAdapterDefaults', { temperature: true }, false],
    ['an adapter-default flag set to false', '#/$defs/LlmCallConfigAdapterDefaults', { maxTokens: false }, false],
  ],
  'events-core': [
    ['turn/end with an extra member', '#/$defs/TurnEndData', { turn: 1, reason: { kind: 'completed' }, note: 'x' }, false],
    ['completed with an extra member', '#/$defs/TurnEndData', { turn: 1, reason: { kind: 'completed', note: 'x' } }, false],
    ['an unknown reason kind with members (open union)', '#/$defs/TurnEndData', { turn: 1, reason: { kind: 'paused', note: 'x' } }, true],
    ['turn 0', '#/$defs/TurnEndData', { turn: 0, reason: { kind: 'completed' } }, false],
    ['aborted without a cause (legacy shape)', '#/$defs/TurnEndData', { turn: 1, reason: { kind: 'aborted' } }, false],
    ['the legacy aborted reason', '#/$defs/LegacyTurnEndData', { turn: 1, reason: { kind: 'aborted' } }, true],
    ['turn/start with a trigger (legacy shape)', '#/$defs/TurnStartData', { turn: 1, trigger: { kind: 'user' } }, false],
    ['the retired reason fallback', '#/$defs/RequestHeaderData', { header: { config: { provider: 'p', model: 'm' } }, reason: 'fallback' }, false],
    ['a flagged reasoningEffort missing from config', '#/$defs/EpochHeader', { config: { provider: 'p', model: 'm' }, adapterDefaults: { reasoningEffort: true } }, false],
    ['a tool/call with an empty callId', '#/$defs/ToolCallData', { turn: 1, step: 1, callId: '', name: 'bash', arguments: '{}' }, false],
  ],
  'events-compaction': [
    ['a summary without llmStreamCall', '#/$defs/CompactionSummaryData', summary, true],
    ['llmStreamCall without rawOutput', '#/$defs/CompactionSummaryData', { ...summary, llmStreamCall: true }, false],
    ['llmStreamCall: false', '#/$defs/CompactionSummaryData', { ...summary, rawOutput: [], llmStreamCall: false }, false],
    ['a standalone start (turn null)', '#/$defs/CompactionStartData', { compactionId: 'c-1', turn: null }, true],
    ['a start owned by turn 0, no turn number', '#/$defs/CompactionStartData', { compactionId: 'c-1', turn: 0 }, false],
    ['an empty shadowedSeqs', '#/$defs/CompactionPruneData', { shadowedRange: { start: 1, end: 1 }, shadowedSeqs: [], shadowedTokenCount: 1 }, false],
  ],
  'events-plugin': [
    ['a normal-mode retry without maxRetries', '#/$defs/LlmRetryData', { retryId: 'r', turn: 1, step: 1, provider: 'p', mode: 'normal', policyKey: 'k', retry: 1, delayMs: 5, failure: { message: 'm', code: 'c' } }, false],
    ['an always-mode retry with maxRetries', '#/$defs/LlmRetryData', { retryId: 'r', turn: 1, step: 1, provider: 'p', mode: 'always', policyKey: 'k', retry: 1, maxRetries: 3, delayMs: 5, failure: { message: 'm', code: 'c' } }, false],
    ['a hook of turn 1.5 (a number, as upstream declares it)', '#/$defs/HookInvokedData', { turn: 1.5, point: 'Stop', dialect: 'codex', handlerId: 'h' }, true],
    ['a subagent descriptor of version 1', '#/$defs/SubagentDescriptorData', { version: 1, mode: 'one-shot', provider: 'p' }, false],
    ['a team member', '#/$defs/TeamMemberData', { version: 1, teamId: 't', member: teamMember }, true],
    ['a team member without its phase', '#/$defs/TeamMemberData', { version: 1, teamId: 't', member: teamMemberWithoutPhase }, false],
    ['a team task of an unknown status', '#/$defs/TeamTaskData', { version: 1, teamId: 't', task: { id: 'task-1', revision: 1, subject: 's', description: 'd', status: 'bogus', blockedBy: [], writeScopes: [] } }, false],
    ['a queued team message', '#/$defs/TeamMessageQueuedData', { version: 1, teamId: 't', message: { id: 'x-1', senderId: 's-1', senderName: 'lead', targetId: 's-2', delivery: 'quiet', content: [{ type: 'text', text: 'hi' }] } }, true],
    ['a queued team message whose content is a string', '#/$defs/TeamMessageQueuedData', { version: 1, teamId: 't', message: { id: 'x-1', senderId: 's-1', senderName: 'lead', targetId: 's-2', delivery: 'quiet', content: 'hi' } }, false],
    ['a team event of version 2', '#/$defs/TeamTaskData', { version: 2, teamId: 't', task: {} }, false],
    ['a schedule deletion', '#/$defs/ScheduleChangeData', { version: 1, operation: 'delete', id: 'r-1' }, true],
    ['a hook dialect named claude', '#/$defs/HookInvokedData', { turn: 1, point: 'Stop', dialect: 'claude', handlerId: 'h' }, false],
  ],
  event: [
    ['a tool/result', '', event('tool/result', { turn: 1, step: 1, message: toolResultMessage }, { surfaceOp: 'append', sourceEventSeqs: [2] }), true],
    ['a tool/result whose message is a user message', '', event('tool/result', { turn: 1, step: 1, message: userMessage }, { surfaceOp: 'append' }), false],
    ['request/header-delta', '', event('request/header-delta', {}), false],
    ['mode/set', '', event('mode/set', {}), false],
    ['an unknown type with any data', '', event('x/custom', [1, 'two']), true],
    ['an unknown type with surfaceOp', '', event('x/custom', {}, { surfaceOp: 'append' }), false],
    ['a storage tag as type, marked ignorable (ENV-3)', '', event('text-chunks', {}, { ignorable: true }), false],
    ['a legacy user/message (only a storage record)', '', event('user/message', { content: [], source: { kind: 'user' } }, { surfaceOp: 'append' }), false],
    ['session/end-seed with members', '', event('session/end-seed', { x: 1 }), false],
  ],
  'storage-header': [
    ['a minimal header', '', header, true],
    ['version 1', '', { ...header, version: 1 }, false],
    ['a negative createdAt', '', { ...header, createdAt: -1 }, false],
    ['another origin', '', { ...header, origin: 'fork' }, false],
    ['a Windows drive cwd', '', { ...header, cwd: 'C:\\work' }, true],
    ['a UNC cwd', '', { ...header, cwd: '\\\\server\\share' }, true],
    ['a drive-relative cwd', '', { ...header, cwd: 'C:work' }, false],
    ['a relative cwd', '', { ...header, cwd: './repo' }, false],
  ],
  'jsonl-header': [
    ['a header line', '', { type: 'session', ...header, cwd: '/w', delegationDepth: 0 }, true],
    ['a header line without delegationDepth', '', { type: 'session', ...header }, false],
    ['a retired sandboxMode', '', { type: 'session', ...header, delegationDepth: 0, sandboxMode: 'read-only' }, false],
    ['a retired approvalPolicy', '', { type: 'session', ...header, delegationDepth: 0, approvalPolicy: 'ask' }, false],
  ],
  'chunk-row': [
    ['a text row', '', textRow, true],
    ['a row with an extra key', '', { ...textRow, seq: 5 }, false],
    ['a row without members', '', { ...textRow, data: { ...textRow.data, dt: [], texts: [] } }, false],
    ['a tool-call row with a name', '', { type: 'tool-call-chunks', seq0: 1, time0: 0, data: { turn: 1, step: 1, index: 1, id: 'c', name: 'bash', dt: [0], args: ['{', '}'] } }, true],
    ['a tool-call row with texts', '', { type: 'tool-call-chunks', seq0: 1, time0: 0, data: { turn: 1, step: 1, index: 1, id: 'c', dt: [], texts: ['x'] } }, false],
  ],
  'storage-record': [
    ['a packed row', '', textRow, true],
    ['an event', '', event('turn/start', { turn: 1 }), true],
    ['a row tag shaped like an event', '', event('text-chunks', {}), false],
    ['a legacy assistant/message', '', event('assistant/message', { turn: 1, step: 1, content: [], provenance: { provider: 'p', model: 'm' } }, { surfaceOp: 'append' }), true],
    ['a legacy steering/message', '', event('steering/message', { turn: 1, message: userMessage }, { surfaceOp: 'append' }), true],
    ['a legacy steering/message without surfaceOp', '', event('steering/message', { turn: 1, message: userMessage }), false],
    ['a legacy tool/result', '', event('tool/result', { turn: 1, step: 1, callId: 'c-1', content: [], isError: false }, { surfaceOp: 'append' }), true],
  ],
  'audit-report': [
    ['a completed bracket', '#/$defs/AuditTimelineBracket', bracket, true],
    ['an outcome outside COMP-16', '#/$defs/AuditTimelineBracket', { ...bracket, outcome: 'complete' }, false],
    ['a replace outside every bracket', '#/$defs/AuditReplacement', replacement, true],
    ['a replace in an orphaned-stale bracket', '#/$defs/AuditReplacement', { ...replacement, bracketOutcome: 'orphaned-stale' }, true],
    ['a replace with an outcome outside COMP-16', '#/$defs/AuditReplacement', { ...replacement, bracketOutcome: 'failed' }, false],
  ],
  vocabulary: [
    ['a version name without the v0- prefix', '', { formatVersion: 0, versions: { pinned: { description: 'd', knownEventTypes: [], surfaceEventTypes: [] } } }, false],
  ],
}

describe('sanity cases', () => {
  const cases = Object.entries(sanity).flatMap(([name, list]) =>
    list.map(([what, fragment, value, valid]) => [`${name}${fragment}: ${what}`, name, fragment, value, valid] as const))

  it('name schema files that exist', () => {
    expect(Object.keys(sanity).every((name) => schemas.has(`${name}.schema.json`))).toBe(true)
  })

  it.each(cases)('%s', (_, name, fragment, value, valid) => {
    const validate = validatorFor(name, fragment)
    expect(validate(value), valid ? errorsOf(validate) : 'must be rejected').toBe(valid)
  })
})

// Corpus lines that fail their schema on purpose or through the snapshot tests' normalization, by
// file and 1-based line. Every other line of every file must validate.
const NO_DEPTH = 'header line without delegationDepth, which the JSONL header line requires'
const NO_VERSION = 'header line without version'
const NO_PROVIDER = 'request/header config has a model but no provider (hand-written fixture)'
const TOOL_NAMES = 'request/header tools are tool names (strings), not tool schemas (snapshot normalization)'
const WEB = 'apps__web__tests__snapshots__'
const SUITE = 'packages__test-support__acp-snapshot__tests__fixtures__'
const PYTHON = 'scripts__snapshots__python-sdk-single-exe__advanced__session'

const expectedCorpusFailures: Record<string, Record<number, string>> = {
  ...Object.fromEntries(
    [
      ...[
        'approval-composer', 'code-mode-round', 'cordis-tool-round', 'feedback-command', 'fresh-round-trip',
        'goal-multi-turn-actions', 'lifecycle-chrome', 'live-interactions', 'message-feedback-protocol',
        'minimal-preset', 'permission-policy-context', 'plan-narrow-viewport', 'plan-review', 'question-composer',
        'steering', 'turn-tail-actions', 'web-search-round',
      ].map((name) => `${WEB}${name}__session.jsonl`),
      ...['navigation-panes', 'pwsh-terminal', 'seeded-history'].map((name) => `${WEB}${name}__seed.jsonl`),
      'examples__acp-agent__tests__goal-snapshots__goal-round-driver__session.jsonl',
      'examples__acp-agent__tests__goal-snapshots__goal-wrapup__session.jsonl',
      'examples__headless-agent__tests__snapshots__ralph-loop__session.jsonl',
      'examples__headless-agent__tests__snapshots__ralph-loop__session.1.jsonl',
      'examples__headless-agent__tests__snapshots__ralph-loop__session.2.jsonl',
    ].map((file) => [file, { 1: NO_DEPTH }]),
  ),
  [`${SUITE}record-suite__rec-child__session.jsonl`]: { 1: NO_VERSION, 2: NO_PROVIDER },
  [`${SUITE}record-suite__rec-child__session.1.jsonl`]: { 1: NO_VERSION, 2: NO_PROVIDER },
  [`${SUITE}record-suite__rec-pin__session.jsonl`]: { 1: NO_VERSION, 2: NO_PROVIDER },
  [`${SUITE}record-suite__rec-pin__session.1.jsonl`]: { 1: `${NO_VERSION}, and ${NO_DEPTH}`, 2: NO_PROVIDER },
  [`${SUITE}record-suite__rec-skip__session.jsonl`]: { 1: NO_VERSION },
  [`${SUITE}suite__authored-error__session.jsonl`]: { 1: NO_VERSION, 2: 'turn/end data is {error} (hand-written fixture)' },
  [`${SUITE}suite__blocked-log__session.jsonl`]: { 1: NO_VERSION, 2: 'hook/result lacks turn, point and handlerId (hand-written fixture)' },
  [`${SUITE}suite__no-model__session.jsonl`]: { 1: NO_VERSION },
  [`${SUITE}suite__pin-turn__session.jsonl`]: { 1: NO_VERSION, 2: NO_PROVIDER, 3: NO_PROVIDER },
  [`${SUITE}suite__plain-turn__session.jsonl`]: { 1: NO_VERSION, 2: NO_PROVIDER },
  [`${SUITE}suite__plain-turn__session.1.jsonl`]: { 1: NO_VERSION, 2: NO_PROVIDER },
  [`${SUITE}suite__shared-pin__session.jsonl`]: { 1: NO_VERSION, 2: NO_PROVIDER, 3: NO_PROVIDER },
  [`${PYTHON}.jsonl`]: { 8: TOOL_NAMES, 30: TOOL_NAMES, 77: TOOL_NAMES },
  [`${PYTHON}.1.jsonl`]: { 10: TOOL_NAMES },
  [`${PYTHON}.2.jsonl`]: { 10: TOOL_NAMES },
}

/** 1-based numbers of the lines of one JSONL file that fail jsonl-header (line 1) or storage-record. */
function failingLines(text: string): number[] {
  const lines = text.split('\n')
  if (lines.at(-1) === '') lines.pop()
  const header = validatorFor('jsonl-header')
  const record = validatorFor('storage-record')
  return lines.flatMap((line, index) => {
    let value: unknown
    try {
      value = JSON.parse(line)
    } catch {
      return [index + 1]
    }
    return (index === 0 ? header : record)(value) ? [] : [index + 1]
  })
}

const corpusRc8 = join(corpusDir, 'upstream-rc8')
const corpusPresent = existsSync(corpusRc8)

describe.skipIf(!corpusPresent)(
  corpusPresent ? 'upstream rc8 corpus' : `upstream rc8 corpus (skipped: ${corpusRc8} not found)`,
  () => {
    const files = corpusPresent ? readdirSync(corpusRc8).filter((name) => name.endsWith('.jsonl')).sort() : []

    it('still holds every file named in the expected failures', () => {
      expect(Object.keys(expectedCorpusFailures).filter((file) => !files.includes(file))).toEqual([])
    })

    it.each(files)('%s', (file) => {
      const expected = Object.keys(expectedCorpusFailures[file] ?? {}).map(Number)
      expect(failingLines(readFileSync(join(corpusRc8, file), 'utf8'))).toEqual(expected)
    })
  },
)
