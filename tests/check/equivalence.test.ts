// `check` streams; the reference pipeline (decodeJsonl -> load -> relations) works on whole arrays.
// They must reach the same outcome, to the code, line, seq and every relation violation: over every
// corpus file (raw, and re-encoded as zstd), against tests/corpus/verdicts.yaml, and over generated
// logs damaged in many ways, in both encodings.
import { existsSync, readFileSync, readdirSync } from 'node:fs'
import path from 'node:path'
import { isDeepStrictEqual } from 'node:util'
import { fileURLToPath } from 'node:url'
import { afterAll, describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { loadVectorCases } from '../../conformance/vector-cases.ts'
import { artifactLines, manyCallsLines, random, replaceHeavyLines, unwrappedToolResult } from './log-generator.ts'
import { check, compressedFrame, hasZstdTool, pipelineOutcome, rawFrame, tempFolder, zstdArtifact } from './support.ts'

const projectRoot = fileURLToPath(new URL('../..', import.meta.url))
const corpusDir = path.resolve(projectRoot, '../shared/corpus/upstream-rc8')
const corpusPresent = existsSync(corpusDir)
const folder = tempFolder()
afterAll(() => folder.remove())

interface Verdict {
  file: string
  verdict: 'accepted' | 'rejected'
  operation?: string
  code?: string
  seq?: number
  line?: number
  events?: number
  relations?: { code: string; seq: number }[]
}

function expectedOutcome(entry: Verdict): unknown {
  if (entry.verdict === 'rejected') {
    const { operation, code, seq, line } = entry
    return { verdict: 'rejected', operation, code, ...(seq === undefined ? {} : { seq }), ...(line === undefined ? {} : { line }) }
  }
  return { verdict: 'accepted', events: entry.events, tornTail: null, relations: (entry.relations ?? []).map(({ code, seq }) => ({ code, seq })) }
}

function linesOf(text: string): string[] {
  return text.endsWith('\n') ? text.slice(0, -1).split('\n') : text.split('\n')
}

describe.skipIf(!corpusPresent)(`check over the corpus ${corpusPresent ? corpusDir : `(skipped: ${corpusDir} not found)`}`, () => {
  const files = corpusPresent ? readdirSync(corpusDir).sort() : []
  const verdicts = parse(readFileSync(path.join(projectRoot, 'tests/corpus/verdicts.yaml'), 'utf8')) as Verdict[]

  it('agrees with the verdicts file, file by file', () => {
    // The folder holds exactly the files the verdicts name: a partial copy would compare too little.
    expect(files).toEqual(verdicts.map(entry => entry.file).sort())
    const byFile = new Map(verdicts.map(entry => [entry.file, entry]))
    for (const file of files) {
      const entry = byFile.get(file)
      expect(entry, file).toBeDefined()
      expect(check(path.join(corpusDir, file), { vocabulary: 'v0-rc8' }).outcome, file).toEqual(expectedOutcome(entry as Verdict))
    }
  })

  it('agrees with the reference pipeline on every file, raw and as zstd', () => {
    for (const [index, file] of files.entries()) {
      const bytes = readFileSync(path.join(corpusDir, file))
      expect(check(path.join(corpusDir, file)).outcome, file).toEqual(pipelineOutcome(bytes, 'raw'))
      const zstd = zstdArtifact(linesOf(bytes.toString('utf8')), [1 + (index % 4), 3])
      expect(check(folder.write(`${index}.jsonl.zstd`, zstd)).outcome, `${file} as zstd`).toEqual(pipelineOutcome(zstd, 'zstd'))
    }
  })
})

// ---- the zstd artifacts of the golden vectors ------------------------------------------------------

describe('check over every zstd artifact in the vectors', () => {
  const artifacts = loadVectorCases().flatMap(vector => vector.steps
    .filter(step => step.operation === 'decodeJsonl' && step.input['encoding'] === 'zstd' && typeof step.input['base64'] === 'string')
    .map((step, index) => ({ name: `${vector.id} #${index + 1}`, bytes: Buffer.from(step.input['base64'] as string, 'base64') })))

  it('finds the hand-built and damaged frames there', () => {
    expect(artifacts.length).toBeGreaterThan(50)
  })

  it('reaches the reference pipeline\'s outcome on each, including frames RFC 8878 rejects', () => {
    const outcomes = artifacts.map(({ name, bytes }, index) => ({
      name, check: check(folder.write(`vector-${index}.jsonl.zstd`, bytes)).outcome, reference: pipelineOutcome(bytes, 'zstd'),
    }))
    expect(outcomes.filter(outcome => !isDeepStrictEqual(outcome.check, outcome.reference))).toEqual([])
  })
})

// ---- generated logs, damaged ---------------------------------------------------------------------

type Mutation = (lines: string[], next: () => number) => void

const pickLine = (lines: string[], next: () => number): number => 1 + Math.floor(next() * (lines.length - 1))

function editLine(edit: (line: string, next: () => number) => string): Mutation {
  return (lines, next) => {
    const index = pickLine(lines, next)
    lines[index] = edit(lines[index] as string, next)
  }
}

function replaceOnce(pattern: RegExp, by: (match: string, next: () => number) => string): Mutation {
  return (lines, next) => {
    const candidates = lines.map((line, index) => (index > 0 && pattern.test(line) ? index : -1)).filter(index => index >= 0)
    if (candidates.length === 0) return
    const index = candidates[Math.floor(next() * candidates.length)] as number
    lines[index] = (lines[index] as string).replace(pattern, match => by(match, next))
  }
}

/** Types an event may be given in place of its own; its seq stays, so the line still decodes. */
const TYPES = [
  'mode/set', 'request/header-delta', 'steering/message', 'session/title', 'no/such-type', 'team/task', 'todo/write', 'step/end',
  'turn/start', 'turn/end', 'tool/result', 'compaction/start', 'compaction/end', 'session/end-seed', 'assistant/chunk', 'user/message',
]

const EVENT_LINE = /^\{"type":"[a-z/-]+"/

/** The raw-damage mutations all break the storage layer; the others keep every line decodable. */
const MUTATIONS: Record<string, Mutation> = {
  'delete a line': (lines, next) => void lines.splice(pickLine(lines, next), 1),
  'duplicate a line': (lines, next) => {
    const index = pickLine(lines, next)
    lines.splice(index, 0, lines[index] as string)
  },
  'cut a line short': editLine((line, next) => line.slice(0, Math.floor(next() * line.length))),
  'insert a blank line': (lines, next) => void lines.splice(pickLine(lines, next), 0, ''),
  'not an object': editLine((_, next) => ['[1,2]', 'null', '"x"', '42', 'true'][Math.floor(next() * 5)] as string),
  'byte order mark': editLine(line => `\uFEFF${line}`),
  'bad row': replaceOnce(/"dt":\[/, () => '"dt":[-0,'),
  'retype an event': replaceOnce(EVENT_LINE, (_, next) => `{"type":"${TYPES[Math.floor(next() * TYPES.length)]}"`),
  'retype another event': replaceOnce(EVENT_LINE, (_, next) => `{"type":"${TYPES[Math.floor(next() * TYPES.length)]}"`),
  'an ignorable unknown type': replaceOnce(EVENT_LINE, () => '{"ignorable":true,"type":"no/such-type"'),
  'negative zero': replaceOnce(/"(time|turn|step|index)":\d+/, match => match.replace(/\d+$/, '-0')),
  'infinite number': replaceOnce(/"time":\d+/, () => '"time":1e400'),
  'unknown key': editLine(line => line.replace(/^\{/, '{"extra":1,')),
  '__proto__ key': editLine((line, next) => (next() < 0.5 ? line.replace(/^\{/, '{"__proto__":{"seq":0},') : line.replace('"data":{', '"data":{"__proto__":{"turn":1},'))),
  'end-seed becomes a title': replaceOnce(/"type":"session\/end-seed"/, () => '"type":"session/title"'),
  'turn end becomes a title': replaceOnce(/"type":"turn\/end"/, () => '"type":"session/title"'),
  'compaction end becomes a title': replaceOnce(/"type":"compaction\/end"/, () => '"type":"session/title"'),
  'move a replace': replaceOnce(/"surfaceOp":\{"op":"replace","start":\d+/, match => match.replace(/\d+$/, digits => String(Number(digits) + 1))),
  'drop a surface op': replaceOnce(/,"surfaceOp":"append"/, () => ''),
  'cite a later seq': replaceOnce(/"sourceEventSeqs":\[\d+/, match => match.replace(/\d+$/, digits => String(Number(digits) + 100000))),
  'answer another call': replaceOnce(/"source":\{"kind":"tool","callId":"call_\d+/, match => `${match}9`),
  'answer no call': (lines, next) => replaceOnce(/"toolCallId":"call_\d+_\d+"(.*)"callId":"call_\d+_\d+"/, match => match.replace(/call_\d+_\d+/g, 'call_none'))(lines, next),
  'rename a compaction': replaceOnce(/"compactionId":"compaction-\d+","turn"/, () => '"compactionId":"other","turn"'),
  'renumber a turn': replaceOnce(/"turn":\d+/, match => match.replace(/\d+$/, digits => String(Number(digits) + 1))),
  'renumber a step': replaceOnce(/"step":\d+/, match => match.replace(/\d+$/, digits => String(Number(digits) + 1))),
  'legacy tool results': lines => lines.forEach((line, index) => { lines[index] = unwrappedToolResult(line) }),
  'legacy turn end': replaceOnce(/"reason":\{"kind":"completed"\}/, () => '"reason":{"kind":"disposed"}'),
  'malformed turn end': replaceOnce(/"reason":\{"kind":"completed"\}/, () => '"reason":{"kind":"completed","extra":1}'),
  'rewrite changes data': replaceOnce(/"text":"\[\.\.\. output pruned \.\.\.\]"\}\],"isError":false/, () => '"text":"[... output pruned ...]"}],"isError":true'),
  'bad header': (lines, next) => {
    lines[0] = (lines[0] as string).replace(next() < 0.5 ? '"delegationDepth":0' : '"createdAt":1789000000000', next() < 0.5 ? '"delegationDepth":-1' : '"createdAt":-0')
  },
}

const MUTATION_NAMES = Object.keys(MUTATIONS)

interface Damaged {
  names: string[]
  lines: string[]
  cut: number | undefined
}

/** More brackets and prunes than upstream writes, so that short logs have some. */
const TEST_RATES = { compaction: 0.15, staleBracket: 0.1, prune: 0.3, parallelCalls: 0.3 }

function damagedLog(seed: number): Damaged {
  const next = random(seed * 7919)
  const lines = [...artifactLines(`s-${seed}`, 100 + Math.floor(next() * 400), seed, TEST_RATES)]
  const names: string[] = []
  for (let count = Math.floor(next() * 4); count > 0; count--) {
    const name = MUTATION_NAMES[Math.floor(next() * MUTATION_NAMES.length)] as string
    names.push(name)
    ;(MUTATIONS[name] as Mutation)(lines, next)
  }
  const cut = next() < 0.1 ? next() : undefined
  if (cut !== undefined) names.push('cut the artifact')
  return { names, lines, cut }
}

/**
 * A 2000-event log damaged by `name` alone, from the first of four seeds whose log it changes: the
 * shorter random logs can lack what an operator edits (a compaction end, a replace), and then it is
 * drawn for them in vain. Undefined when no seed's log changes.
 */
function damagedBy(name: string): Damaged | undefined {
  for (const seed of [1, 2, 3, 4]) {
    const lines = [...artifactLines(`s-${seed}`, 2000, seed, TEST_RATES)]
    const before = lines.join('\n')
    ;(MUTATIONS[name] as Mutation)(lines, random(seed))
    if (lines.join('\n') !== before) return { names: [name], lines, cut: undefined }
  }
  return undefined
}

/** The logs the comparisons below run over: the random ones of the seeds, then one per operator. */
function comparedLogs(): { label: string; damaged: Damaged }[] {
  return [
    ...generatedSeeds().map(seed => ({ label: `g${seed}`, damaged: damagedLog(seed) })),
    ...MUTATION_NAMES.flatMap((name, index) => {
      const damaged = damagedBy(name)
      return damaged === undefined ? [] : [{ label: `one${index}`, damaged }]
    }),
  ]
}

function cutAt(bytes: Buffer, cut: number | undefined): Buffer {
  return cut === undefined ? bytes : bytes.subarray(0, Math.floor(bytes.length * (0.5 + cut / 2)))
}

/**
 * The seeds of the generated logs: 1 to 80, or, for longer exploratory runs outside `npm test`, as many
 * times more as FC_RUNS_SCALE says, from FC_SEED on (the knobs of tests/properties/README.md).
 */
function generatedSeeds(): number[] {
  const first = Number(process.env['FC_SEED'] ?? 1)
  const count = Math.max(1, Math.round(80 * Number(process.env['FC_RUNS_SCALE'] ?? 1)))
  return Array.from({ length: count }, (_, index) => first + index)
}

/** An outcome's kind: accepted (with relations or a torn tail, or neither), or a rejection's code. */
function outcomeKind(outcome: ReturnType<typeof check>['outcome']): string {
  if (outcome.verdict !== 'accepted') return `${outcome.verdict} ${outcome.code}`
  return `accepted${outcome.relations.length > 0 ? ' with relations' : ''}${outcome.tornTail === null ? '' : ' torn'}`
}

describe('check over generated logs agrees with the reference pipeline', () => {
  const seeds = generatedSeeds()

  // Most operators edit the text the generator writes: one whose pattern no longer matches it would
  // leave every log it is drawn for intact, and the comparisons below would still pass.
  it('damages with operators that each change a generated log, into outcomes of many kinds', () => {
    // Each is compared on a log it changed (comparedLogs), whatever the random draws reach.
    expect(MUTATION_NAMES.filter(name => damagedBy(name) === undefined)).toEqual([])
    const kinds = new Set(seeds.slice(0, 80).map(seed => {
      const { lines, cut } = damagedLog(seed)
      return outcomeKind(check(folder.write(`kind${seed}.jsonl`, cutAt(Buffer.from(`${lines.join('\n')}\n`), cut))).outcome)
    }))
    expect(kinds).toContain('accepted')
    expect([...kinds].filter(kind => kind.startsWith('accepted ')).length, [...kinds].join(', ')).toBeGreaterThan(0)
    expect([...kinds].filter(kind => kind.startsWith('rejected ')).length, [...kinds].join(', ')).toBeGreaterThanOrEqual(8)
  })

  it('raw, with every kind of damage', () => {
    for (const { label, damaged: { names, lines, cut } } of comparedLogs()) {
      const bytes = cutAt(Buffer.from(`${lines.join('\n')}\n`), cut)
      expect(check(folder.write(`${label}.jsonl`, bytes)).outcome, `${label}: ${names.join(', ') || 'intact'}`).toEqual(pipelineOutcome(bytes, 'raw'))
    }
  })

  it('zstd (raw-block frames), with every kind of damage', () => {
    for (const { label, damaged: { names, lines, cut } } of comparedLogs()) {
      const bytes = cutAt(zstdArtifact(lines, [1, 4, 2, 9]), cut)
      expect(check(folder.write(`${label}.jsonl.zstd`, bytes)).outcome, `${label}: ${names.join(', ') || 'intact'}`).toEqual(pipelineOutcome(bytes, 'zstd'))
    }
  })

  it.skipIf(!hasZstdTool)(`zstd (compressed frames${hasZstdTool ? '' : ', skipped: no zstd tool'}), torn anywhere`, () => {
    for (const seed of seeds.slice(0, 20)) {
      const { names, lines } = damagedLog(seed)
      const whole = zstdArtifact(lines, [40, 7], compressedFrame)
      const bytes = seed % 2 === 0 ? whole.subarray(0, whole.length - 1 - (seed * 37) % 200) : whole
      expect(check(folder.write(`c${seed}.jsonl.zstd`, bytes)).outcome, `seed ${seed}: ${names.join(', ') || 'intact'}`).toEqual(pipelineOutcome(bytes, 'zstd'))
    }
  })

  it('stays equal when frames carry no checksum', () => {
    const lines = [...artifactLines('no-checksum', 300, 5, TEST_RATES)]
    const bytes = zstdArtifact(lines, [3], content => rawFrame(content, { checksum: false }))
    expect(check(folder.write('no-checksum.jsonl.zstd', bytes)).outcome).toEqual(pipelineOutcome(bytes, 'zstd'))
  })
})

// The benchmarks time check and audit on these logs; a log that check rejects early would time nothing.
describe("the benchmarks' adversarial logs", () => {
  it.each([['replace-heavy', replaceHeavyLines], ['many-calls', manyCallsLines]] as const)('%s: accepted with no relation violation, as the reference pipeline finds it', (shape, lines) => {
    const bytes = Buffer.from(`${[...lines(401)].join('\n')}\n`)
    const outcome = check(folder.write(`${shape}.jsonl`, bytes)).outcome
    expect(outcome).toEqual({ verdict: 'accepted', events: 401, tornTail: null, relations: [] })
    expect(outcome).toEqual(pipelineOutcome(bytes, 'raw'))
  })
})
