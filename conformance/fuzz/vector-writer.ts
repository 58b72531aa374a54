// Writes a shrunk counterexample as a one-case vector file (vectors/README.md) into the fuzz output
// folder, never into vectors/. The expectation is the REFERENCE's result: the one place where a
// machine writes an expectation, so the case is marked `review: true` for a person to check it
// against the spec before it may join the suite. The id is `fuzz-` and the first 12 hex digits of
// the SHA-256 of the case's content, so the same counterexample always gets the same id and file.
import { createHash } from 'node:crypto'
import { join, relative } from 'node:path'
import { Document, isMap, isScalar, isSeq, visit, type Node } from 'yaml'
import { BASE_TIME, isPlainObject } from '../builder.ts'
import { expectedRejectionOf, firstDifference, type OperationResult } from '../expectations.ts'
import { encodeTagged } from '../protocol.ts'
import { citingRequirements, readSpecCatalog, type Requirement } from '../spec-catalog.ts'
import { TAG_KEY } from '../tagged-values.ts'
import { loadVectorFile, projectRoot, type OperationName, type VectorCase } from '../vector-cases.ts'
import { makeFolder, replaceFile } from '../reports/write.ts'
import { adapterSide, type Disagreement } from './compare.ts'
import { OPERATION_PROFILE, type Probe } from './probes.ts'

/** The requirement that states each operation's result, for disagreements over a value. */
const OPERATION_REQUIREMENT: Record<string, string> = {
  load: 'PROC-5', append: 'PROC-4', surface: 'SURF-10', messages: 'DER-1', requestHeader: 'HDR-4', requestContext: 'HDR-8',
  headerEquals: 'HDR-5', relations: 'PROC-7', repair: 'REPAIR-5', resume: 'SEED-10', compactionState: 'COMP-17', regionBalance: 'REGION-6',
  fork: 'FORK-8', decodeJsonl: 'JSONL-4', encodeJsonl: 'JSONL-8', artifactPath: 'JSONL-1', store: 'STORE-2',
}

interface Catalog {
  byId: Map<string, Requirement>
  citing: Map<string, string[]>
}

let catalog: Catalog | undefined

function specCatalog(): Catalog {
  if (catalog === undefined) {
    const { requirements } = readSpecCatalog(join(projectRoot, 'spec'))
    catalog = { byId: new Map(requirements.map(requirement => [requirement.id, requirement])), citing: citingRequirements(requirements) }
  }
  return catalog
}

function codesIn(text: string): string[] {
  return [...text.matchAll(/\b([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)\b/g)].map(match => match[1]!)
}

/**
 * The requirements a disagreement involves. A rejection the reference gives: the requirements whose
 * Errors line names its code, those of the operation's profile first (a repair that REPAIR-13 rejects
 * with a code of chapter 04 is a case of chapter 12). Otherwise the ones naming a code the adapter
 * reported (or a violation the two lists differ in), then the requirement that states the operation's
 * result.
 */
export function requirementsOf(disagreement: Disagreement): string[] {
  const { byId, citing } = specCatalog()
  const known = (ids: readonly string[]): string[] => [...new Set(ids)].filter(id => byId.has(id))
  const fromCodes = (codes: readonly string[]): string[] => codes.flatMap(code => citing.get(code) ?? [])
  if (!disagreement.expected.ok) {
    const profile = OPERATION_PROFILE[disagreement.operation as OperationName] ?? ''
    const ofProfile = (id: string): boolean => byId.get(id)!.profiles.includes(profile)
    const cited = known(fromCodes([disagreement.expected.error.code]))
    return [...cited.filter(ofProfile), ...cited.filter(id => !ofProfile(id))]
  }
  return known([...fromCodes(codesIn(disagreement.adapter)), OPERATION_REQUIREMENT[disagreement.operation] ?? ''])
}

function chapterOf(requirements: readonly string[]): string {
  const chapter = specCatalog().byId.get(requirements[0] ?? '')?.chapter ?? '00-processing.md'
  return chapter.replace(/\.md$/, '')
}

/** A log item for an event: `event:` where the builder rebuilds it exactly, else `record:`. */
function logItem(record: unknown, index: number): unknown {
  const tagged = encodeTagged(record)
  if (!isPlainObject(tagged) || TAG_KEY in tagged || !('seq' in tagged) || !('time' in tagged)) return { record: tagged }
  const { seq, time, ...rest } = tagged
  return { event: { ...(seq === index ? {} : { seq }), ...(time === BASE_TIME + index ? {} : { time }), ...rest } }
}

/** The append step's builder item: `event:` with the candidate's members and time, or the record verbatim. */
function appendItem(probe: Probe): unknown {
  const candidate = encodeTagged(probe.candidate)
  if (probe.verbatimCandidate) return { record: candidate }
  const time = probe.candidateTime === BASE_TIME + probe.events.length ? {} : { time: encodeTagged(probe.candidateTime) }
  return { event: { ...(candidate as Record<string, unknown>), ...time } }
}

function expectationOf(probe: Probe, result: OperationResult): unknown {
  if (!result.ok) return { reject: expectedRejectionOf(result.error) }
  if (probe.operation === 'append') {
    const built = { ...(probe.candidate as Record<string, unknown>), seq: probe.events.length, time: probe.candidateTime }
    if (!probe.verbatimCandidate && firstDifference(built, result.value) === undefined) return { accept: true }
  }
  return { value: encodeTagged(result.value) }
}

export interface CaseContext {
  adapterName: string
  /** The profile the adapter was asked the operation under, when not the operation's own (a writer's messages). */
  profile?: string
  seed: number
  run: number
  mutation?: string
  olderShapes: boolean
  /** The stored log the run took (`fuzz --log`), when it took one. */
  storedLog?: string
}

export interface WrittenVector {
  id: string
  /** The file, relative to the output folder. */
  file: string
  chapter: string
  requirements: string[]
}

/** The case's content: everything but the id, title and notes, which the hash leaves out. */
function caseContent(probe: Probe, disagreement: Disagreement, profile: string | undefined): Record<string, unknown> {
  const requirements = requirementsOf(disagreement)
  const step = probe.operation === 'append'
    ? { append: appendItem(probe), expect: expectationOf(probe, disagreement.expected) }
    : { [probe.operation]: encodeTagged(probe.extra), expect: expectationOf(probe, disagreement.expected) }
  return {
    requirements: requirements.length > 0 ? requirements : ['PROC-1'],
    profile: profile ?? OPERATION_PROFILE[probe.operation],
    ...(probe.header === undefined ? {} : { header: encodeTagged(probe.header) }),
    ...(probe.events.length === 0 ? {} : { log: probe.events.map(logItem) }),
    steps: [step],
  }
}

export function vectorId(content: unknown): string {
  return `fuzz-${createHash('sha256').update(JSON.stringify(content)).digest('hex').slice(0, 12)}`
}

function notesOf(disagreement: Disagreement, context: CaseContext): string {
  const actual = disagreement.actual.kind === 'error' ? `it threw: ${disagreement.actual.message}` : disagreement.detail
  const seq = disagreement.divergingSeq === undefined ? '' : ` The two diverge at seq ${disagreement.divergingSeq}.`
  const mutation = context.storedLog !== undefined ? `the stored log ${context.storedLog}, cut down`
    : context.mutation === undefined ? 'a valid generated log' : `a log broken by the mutation operator ${context.mutation}`
  const shapes = context.olderShapes && context.storedLog === undefined ? ', then rewritten into older shapes' : ''
  const variant = disagreement.variant === undefined ? '' : `; the probe's input made to hold ${disagreement.variant}`
  return `Found by dsh-conformance fuzz (seed ${context.seed}, run ${context.run}, from ${mutation}${shapes}${variant}) against ${context.adapterName}: ${actual}.${seq} `
    + 'The expectation is the reference interpreter\'s result: check it against the spec before this case joins vectors/.'
}

/** Characters that a plain or block YAML scalar would carry invisibly; a line feed is handled apart. */
const NEEDS_ESCAPES = /[\u0000-\u0009\u000b-\u001f\u007f-\u009f\u2028\u2029\ud800-\udfff\ufeff\ufffe\uffff]/
/**
 * Of those, the ones the yaml package writes raw even in a double-quoted scalar: DEL and C1 controls,
 * which YAML does not count as printable, the line and paragraph separators, a byte order mark, and
 * noncharacters.
 */
const WRITTEN_RAW = /[\u007f-\u009f\u2028\u2029\ufeff\ufffe\uffff]/g

/** Escapes what WRITTEN_RAW matches; each such character sits in a double-quoted scalar (layOut). */
function escapedRaw(text: string): string {
  return text.replace(WRITTEN_RAW, char => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/**
 * Layout for people: the header, each log item and each step's members in flow style, one line each;
 * strings with control or separator characters double-quoted, so that they show as escapes; and the
 * JSONL text of a decodeJsonl step as a block literal, one stored line per line.
 */
function layOut(document: Document): void {
  visit(document, {
    Scalar(_key, scalar) {
      if (typeof scalar.value === 'string' && (NEEDS_ESCAPES.test(scalar.value) || scalar.value.includes('\n'))) scalar.type = 'QUOTE_DOUBLE'
    },
  })
  const cases = document.get('cases') as Node
  if (!isSeq(cases)) return
  for (const item of cases.items) {
    if (!isMap(item)) continue
    const header = item.get('header')
    if (isMap(header)) header.flow = true
    const log = item.get('log')
    if (isSeq(log)) for (const entry of log.items) if (isMap(entry)) entry.flow = true
    const steps = item.get('steps')
    if (!isSeq(steps)) continue
    for (const step of steps.items) {
      if (!isMap(step)) continue
      for (const pair of step.items) {
        if (!isMap(pair.value) && !isSeq(pair.value)) continue
        const text = isMap(pair.value) ? pair.value.get('text', true) : undefined
        if (isScalar(text) && typeof text.value === 'string' && !NEEDS_ESCAPES.test(text.value)) text.type = 'BLOCK_LITERAL'
        else pair.value.flow = true
      }
    }
  }
}

export function renderVector(probe: Probe, disagreement: Disagreement, context: CaseContext): { id: string; chapter: string; requirements: string[]; text: string } {
  const content = caseContent(probe, disagreement, context.profile)
  const id = vectorId(content)
  const requirements = content['requirements'] as string[]
  const chapter = chapterOf(requirements)
  const title = `${probe.operation}: the reference ${disagreement.reference}, ${context.adapterName} ${adapterSide(disagreement)}`
  const file = {
    chapter,
    title: 'Counterexamples found by differential fuzzing (review before use)',
    cases: [{ id, title, requirements, profile: content['profile'], review: true, notes: notesOf(disagreement, context), ...content }],
  }
  const document = new Document(file)
  layOut(document)
  return { id, chapter, requirements, text: escapedRaw(document.toString({ lineWidth: 0 })) }
}

/** Writes DIR/<chapter>/<id>.yaml and loads it back as the runner would; throws when it does not load. */
export function writeVector(outDir: string, probe: Probe, disagreement: Disagreement, context: CaseContext): { written: WrittenVector; vector: VectorCase } {
  const rendered = renderVector(probe, disagreement, context)
  const file = join(rendered.chapter, `${rendered.id}.yaml`)
  makeFolder(join(outDir, rendered.chapter))
  const path = join(outDir, file)
  replaceFile(path, `# Written by dsh-conformance fuzz. The expectation is the reference's result; review: true until a person checks it.\n${rendered.text}`)
  const [vector] = loadVectorFile(path, relative(projectRoot, path))
  return { written: { id: rendered.id, file, chapter: rendered.chapter, requirements: rendered.requirements }, vector: vector! }
}
