// Reads vectors/**/*.yaml (or *.yml), checks each file against schemas/vector-file.schema.json and
// expands every case into steps whose inputs are complete, static JSON (tagged values still tagged):
// this expanded form is what the runner executes and what the JSON bundle carries.
import { readFileSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import { fileURLToPath } from 'node:url'
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js'
import { BASE_TIME, buildEvent, buildLog, isPlainObject } from './builder.ts'
import { folderNameOf, walkFolder, type WalkedEntry } from './folder-walk.ts'
import { decodeTagged } from './tagged-values.ts'
import { readSpecTerms, termFault, type SpecTerms } from './vector-spec-terms.ts'
import { errorMessage, fileErrorMessage, likelyMeant, UNDECODABLE_NAME } from './wording.ts'
import { parseYamlText, readGivenFile, type LineAt, type YamlText } from './yaml-text.ts'

export const OPERATIONS = [
  'load', 'append', 'surface', 'messages', 'requestHeader', 'requestContext', 'relations', 'repair',
  'resume', 'compactionState', 'regionBalance', 'fork', 'decodeJsonl', 'encodeJsonl', 'artifactPath',
  'store', 'headerEquals',
] as const
export type OperationName = (typeof OPERATIONS)[number]

export type Expectation =
  | { accept: true }
  | { value: unknown }
  | { reject: ExpectedRejection }

/** The code a rejection must carry, and its seq and line when given; null: the rejection carries none. */
export interface ExpectedRejection {
  code: string
  seq?: number | null
  line?: number | null
}

export interface VectorStep {
  operation: OperationName
  input: Record<string, unknown>
  expect: Expectation
}

export interface VectorCase {
  id: string
  title: string
  file: string
  chapter: string
  requirements: string[]
  profile: string
  review: boolean
  steps: VectorStep[]
}

export const projectRoot = fileURLToPath(new URL('..', import.meta.url))
export const vectorsDir = join(projectRoot, 'vectors')

let compiledVectorFileSchema: ValidateFunction | undefined

/**
 * The vector file schema's validator, compiled on first use: compiled at import, it cost every process
 * importing this module (the reference's `serve`, started once per run) whether it read vectors or not.
 */
function vectorFileValidator(): ValidateFunction {
  if (compiledVectorFileSchema === undefined) {
    const schema = JSON.parse(readFileSync(join(projectRoot, 'schemas/vector-file.schema.json'), 'utf8'))
    // verbose: a `not` error then carries its subschema, whose description says what is refused.
    compiledVectorFileSchema = new Ajv2020({ strict: true, allErrors: true, verbose: true }).compile(schema)
  }
  return compiledVectorFileSchema
}

/**
 * A relative path with '/' between its parts on every platform: the names and the order of the vector
 * files are part of the bundle and of the suite's content hash, which must not depend on the platform.
 */
function portablePath(path: string): string {
  return path.split(sep).join('/')
}

/** Whether a folder's entry of this name is taken for a vector file: YAML, by either of its extensions. */
export function isVectorFileName(name: string): boolean {
  return name.endsWith('.yaml') || name.endsWith('.yml')
}

/**
 * The vector files under `dir`, in the order of their names relative to it; VectorFileError for a
 * folder that cannot be read or an entry named like a vector file that is none, which is not opened.
 */
export function listVectorFiles(dir: string = vectorsDir): string[] {
  const walked = walkFolder(dir, isVectorFileName)
  const fault = walked.find((entry): entry is UnreadEntry => entry.kind !== 'file')
  if (fault !== undefined) throw new VectorFileError(walkFault(fault, dir))
  // Sorted by the name relative to `dir`, each opened by the path the walk found it by: join would
  // resolve a `link/..` in `dir` by the text.
  return walked.map((entry) => ({ name: portablePath(relative(dir, entry.path)), path: entry.path }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0)).map((file) => file.path)
}

/** An entry of a folder walk that is no file to read. */
type UnreadEntry = Exclude<WalkedEntry, { kind: 'file' }>

/** What is wrong with an entry of the walk of `dir` that is no vector file to read. */
function walkFault(entry: UnreadEntry, dir: string): string {
  switch (entry.kind) {
    case 'unreadable-folder': return entry.path === dir ? `${dir}: not a folder of vector files: ${errorMessage(entry.error)}` : `${entry.path}: cannot read the folder: ${fileErrorMessage(entry.error, entry.path)}`
    case 'undecodable-name': return `${entry.path}: its name is not valid UTF-8: ${UNDECODABLE_NAME}`
    case 'not-regular': return `${entry.path}: named like a vector file but not a regular file (a pipe, socket or device), so not read`
  }
}

/** Loads every vector file; any malformed file or case is an error naming the file, the line and the case. */
export function loadVectorCases(dir: string = vectorsDir): VectorCase[] {
  return listVectorFiles(dir).flatMap((path) => loadVectorFile(path, portablePath(relative(projectRoot, path))))
}

/** A vector file the suite cannot use: its message names the file, the line and what is wrong. */
export class VectorFileError extends Error {}

/**
 * The cases of a folder of one's own (`--vectors DIR`), each file named from the folder's own name
 * (`fuzz/19-jsonl/fuzz-….yaml`), so that the content hash does not change with the working folder or
 * the spelling of DIR. VectorFileError when the folder cannot be read, holds no vector file, or names
 * a case twice.
 */
export function loadVectorFolder(dir: string): VectorCase[] {
  const files = listVectorFiles(dir)
  if (files.length === 0) throw new VectorFileError(`${dir}: holds no vector file (*.yaml or *.yml)`)
  const named = (path: string): string => portablePath(join(folderNameOf(dir), relative(dir, path)))
  // A fault is named at the path the reader can open, not at the file's name in the hash.
  const cases = files.flatMap((path) => loadVectorFile(path, named(path), path))
  const openable = new Map(files.map((path) => [named(path), path]))
  const seen = new Map<string, string>()
  for (const vector of cases) {
    const first = seen.get(vector.id)
    if (first !== undefined) {
      const [firstPath, againPath] = [openable.get(first)!, openable.get(vector.file)!]
      const firstLine = caseLines(firstPath, vector.id)[0]
      const againLine = caseLines(againPath, vector.id)[firstPath === againPath ? 1 : 0]
      throw new VectorFileError(`${againPath}:${againLine}: case ${vector.id} is also at ${firstPath}:${firstLine}: a case id names one case`)
    }
    seen.set(vector.id, vector.file)
  }
  return cases
}

/** The lines at which the file's cases of id `id` start (the file has loaded, so it reads again). */
function caseLines(path: string, id: string): (number | undefined)[] {
  const { value, lineAt } = vectorFileYaml(path, path)
  const cases = (value as { cases: { id: unknown }[] }).cases
  return cases.flatMap((rawCase, index) => (rawCase.id === id ? [lineAt(['cases', index])] : []))
}

let suiteSpecTerms: SpecTerms | undefined

/** The terms of this suite's spec/, read once: every case of every file is held to them, and every rejection an adapter gives. */
export function specTerms(): SpecTerms {
  suiteSpecTerms ??= readSpecTerms(join(projectRoot, 'spec'))
  return suiteSpecTerms
}

/** A fault of one part of a case, named by its path inside the case (`['log', 2]`). */
class CaseFault extends Error {
  constructor(readonly where: readonly (string | number)[], message: string, readonly key?: string) {
    super(message)
  }
}

/** Runs `build` and, if it throws, throws again naming `where`. */
function within<T>(where: readonly (string | number)[], build: () => T): T {
  try {
    return build()
  } catch (error) {
    throw new CaseFault(where, errorMessage(error))
  }
}

/** `log item 2: `, `step 1: `, `header: `: the part of a case a fault lies in. */
function partName(where: readonly (string | number)[]): string {
  const [member, index] = where
  if (member === undefined) return ''
  return member === 'log' ? `log item ${index}: ` : member === 'steps' ? `step ${index}: ` : `${member}: `
}

/**
 * One line per schema error, each at the line its value (or the key at fault) starts: `if` wrappers
 * dropped (the errors of their `then` follow), a key at fault named, a `not` said by its description.
 */
function schemaErrorLines(errors: readonly ErrorObject[], at: LineAt): string[] {
  const lines = withoutBranchNoise(errors).filter((error) => error.keyword !== 'if' && error.keyword !== 'propertyNames').map((error) => {
    // A JSON pointer's segments; YAML sequences take an index written as a string too.
    const path = error.instancePath.split('/').slice(1).map((segment) => segment.replace(/~1/g, '/').replace(/~0/g, '~'))
    const key: string | undefined = error.propertyName ?? error.params['additionalProperty'] ?? error.params['unevaluatedProperty']
    const line = at(path, key)
    return `${line === undefined ? '' : `line ${line}, `}${shownPath(path)}: ${schemaErrorMessage(error, key)}`
  })
  return [...new Set(lines)]
}

/** An error in words: a key at fault named, a `not` said by its description, an enum's values listed. */
function schemaErrorMessage(error: ErrorObject, key: string | undefined): string {
  if (key !== undefined) return `key "${key}" is not allowed here`
  const refused = isPlainObject(error.schema) ? error.schema['description'] : undefined
  if (error.keyword === 'not' && typeof refused === 'string') return `must not be ${refused}`
  if (error.keyword === 'enum' && Array.isArray(error.params['allowedValues'])) return `must be one of ${error.params['allowedValues'].join(', ')}`
  return error.message ?? 'is not valid here'
}

/** The keys the branches of a oneOf of objects take (an expectation's accept, value and reject). */
function branchKeys(oneOf: ErrorObject): Set<string> {
  const branches = isPlainObject(oneOf.parentSchema) && Array.isArray(oneOf.parentSchema['oneOf']) ? oneOf.parentSchema['oneOf'] : []
  return new Set(branches.flatMap((branch: unknown) => (isPlainObject(branch) && isPlainObject(branch['properties']) ? Object.keys(branch['properties']) : [])))
}

/**
 * A described oneOf of objects told apart by their keys (an expectation: accept, value or reject) fails
 * in every branch at once, each saying one of those keys is missing or not allowed. That noise is
 * dropped; the oneOf's description then says what was wanted, unless an error that stays says what is
 * wrong there (a key no branch takes, a fault deeper inside). Any other oneOf (a seq: an integer or
 * null) keeps its errors as they are.
 */
function withoutBranchNoise(errors: readonly ErrorObject[]): ErrorObject[] {
  const keyed = new Map(errors
    .filter((error) => error.keyword === 'oneOf' && isPlainObject(error.parentSchema) && typeof error.parentSchema['description'] === 'string')
    .filter((oneOf) => errors.some((error) => error.keyword === 'required' && error.instancePath === oneOf.instancePath))
    .map((oneOf) => [oneOf.instancePath, branchKeys(oneOf)]))
  const isNoise = (error: ErrorObject): boolean => {
    const keys = keyed.get(error.instancePath)
    if (keys === undefined) return false
    return error.keyword === 'required' || (error.keyword === 'additionalProperties' && keys.has(String(error.params['additionalProperty'])))
  }
  const kept = errors.filter((error) => !isNoise(error))
  const saysMore = (place: string): boolean => kept.some((error) => error.keyword !== 'oneOf' && (error.instancePath === place || error.instancePath.startsWith(`${place}/`)))
  return kept.flatMap((error) => {
    // A oneOf with no description, or one not told apart by keys, keeps ajv's own words.
    if (error.keyword !== 'oneOf' || !keyed.has(error.instancePath)) return [error]
    return saysMore(error.instancePath) ? [] : [{ ...error, message: `must be ${String((error.parentSchema as Record<string, unknown>)['description'])}` }]
  })
}

/** Where in the file, as its author would write it: cases[0].log[1]["turn/end"], not a JSON pointer. */
function shownPath(path: readonly string[]): string {
  if (path.length === 0) return 'the file'
  return path.map((segment, index) => {
    if (/^\d+$/.test(segment)) return `[${segment}]`
    return /^[A-Za-z_$][\w$]*$/.test(segment) ? `${index === 0 ? '' : '.'}${segment}` : `[${JSON.stringify(segment)}]`
  }).join('')
}

/** The YAML of a vector file, or a VectorFileError: it cannot be read, is not UTF-8, not YAML, or holds a YAML tag. */
function vectorFileYaml(path: string, shownAs: string): YamlText {
  try {
    return parseYamlText(readGivenFile(path, 'vector file'), shownAs)
  } catch (error) {
    throw new VectorFileError(errorMessage(error))
  }
}

/**
 * Reads one vector file, its cases naming it `name`; a malformed file or case is an error naming the
 * file (as `shownAs`), the line and the case.
 */
export function loadVectorFile(path: string, name: string, shownAs = name): VectorCase[] {
  const { value: document, lineAt: at } = vectorFileYaml(path, shownAs)
  const validate = vectorFileValidator()
  if (!validate(document)) {
    throw new VectorFileError(`${shownAs}: not a valid vector file: ${schemaErrorLines(validate.errors ?? [], at).join('; ')}`)
  }
  const file = document as { chapter: string; cases: Record<string, unknown>[] }
  const { chapters } = specTerms()
  if (!chapters.includes(file.chapter)) {
    const meant = likelyMeant(file.chapter, chapters)
    throw new VectorFileError(`${shownAs}:${at(['chapter']) ?? 1}: chapter ${file.chapter} is not a chapter of spec/${meant === undefined ? ` (its chapters: ${chapters[0]} to ${chapters.at(-1)})` : `; did you mean ${meant}?`}`)
  }
  return file.cases.map((rawCase, index) => {
    try {
      const vector = expandCase(rawCase, file.chapter, name)
      const fault = termFault(specTerms(), vector)
      if (fault !== undefined) throw new CaseFault(fault.where, fault.message, fault.key)
      return vector
    } catch (error) {
      const where = error instanceof CaseFault ? error.where : []
      const line = at(['cases', index, ...where], error instanceof CaseFault ? error.key : undefined) ?? at(['cases', index])
      throw new VectorFileError(`${shownAs}:${line}: case ${String(rawCase['id'])}: ${partName(where)}${errorMessage(error)}`)
    }
  })
}

function expandLog(items: unknown): unknown[] {
  const built = buildLog(Array.isArray(items) ? items : [])
  if ('error' in built) throw new CaseFault(['log', built.error.index], built.error.message)
  return built.events
}

function baseInput(rawCase: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {}
  for (const key of ['header', 'sessionId', 'vocabulary', 'text', 'base64'] as const) {
    if (rawCase[key] !== undefined) input[key] = rawCase[key]
  }
  return input
}

/** The case's `header` and `sessionId`, which append takes too (it takes no vocabulary: UNK-2). */
function writerIdentity(shared: Record<string, unknown>): Record<string, unknown> {
  const { header, sessionId } = shared
  return { ...(header === undefined ? {} : { header }), ...(sessionId === undefined ? {} : { sessionId }) }
}

/**
 * A member a built append item gives that its candidate leaves out (`seq`, `ignorable`, as a modifier
 * or inside an `event:` head), if it gives one: it would be dropped unread.
 */
function droppedModifier(item: unknown): string | undefined {
  if (!isPlainObject(item) || 'record' in item) return undefined
  const inEvent = isPlainObject(item['event']) ? item['event'] : {}
  return ['seq', 'ignorable'].find((key) => key in item || key in inEvent)
}

/** The candidate of an append step: the item built at the log's end, cut down to candidate members. */
function candidateOf(item: unknown, seq: number): { candidate: unknown; event: unknown } {
  const event = buildEvent(item, seq)
  if (!isPlainObject(event) || (isPlainObject(item) && 'record' in item)) return { candidate: event, event }
  const { seq: _seq, time: _time, ignorable: _ignorable, ...candidate } = event
  return { candidate, event: { ...candidate, seq, time: event['time'] } }
}

function expandCase(rawCase: Record<string, unknown>, chapter: string, file: string): VectorCase {
  const logEvents = expandLog(rawCase['log'])
  let events = logEvents
  const shared = baseInput(rawCase)
  const steps = (rawCase['steps'] as Record<string, unknown>[]).map((rawStep, index): VectorStep => {
    // The schema lets a step have its expect and exactly one operation.
    const operation = OPERATIONS.find((name) => name in rawStep)!
    const expect = rawStep['expect'] as Expectation
    if (operation !== 'append') {
      const extra = isPlainObject(rawStep[operation]) ? rawStep[operation] as Record<string, unknown> : {}
      return { operation, input: { ...shared, events, ...extra }, expect }
    }
    const dropped = droppedModifier(rawStep['append'])
    if (dropped !== undefined) throw new CaseFault(['steps', index, 'append'], `an append's candidate has no ${dropped}: the writer gives the event its seq (the log's length) and no ignorable member, so write what it gets in the step's expected value`, dropped)
    const { candidate, event } = candidateOf(rawStep['append'], events.length)
    // The writer's clock (PROC-4) is always given; a record: candidate without a time of its own reads
    // the builder's clock at the log's end.
    const time = isPlainObject(event) && event['time'] !== undefined ? event['time'] : BASE_TIME + events.length
    const input = { ...writerIdentity(shared), events, candidate, time }
    const step: VectorStep = { operation, input, expect: 'accept' in expect ? { value: event } : expect }
    // An accepted append joins the log that later steps of the case see (vectors/README.md).
    if (!('reject' in expect)) events = [...events, event]
    return step
  })
  // An unknown or malformed tagged value is a fault of the vector: report it now, not mid-run.
  within(['header'], () => decodeTagged(rawCase['header']))
  for (const [index, event] of logEvents.entries()) within(['log', index], () => decodeTagged(event))
  // A step's own members and expectation: what its input adds to the header and log checked above.
  for (const [index, rawStep] of (rawCase['steps'] as unknown[]).entries()) within(['steps', index], () => decodeTagged(rawStep))
  return {
    id: String(rawCase['id']),
    title: String(rawCase['title']),
    file,
    chapter,
    requirements: rawCase['requirements'] as string[],
    profile: String(rawCase['profile']),
    review: rawCase['review'] === true,
    steps,
  }
}
