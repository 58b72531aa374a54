// The YAML files the suite is given (vector files, baselines, known-divergences files): text that is not
// UTF-8 or not YAML, or holds a YAML tag, is an error naming the file, not a parser's message alone; a
// member the file's shape lacks (a misspelt key) is named rather than passed over; and a fault in a
// member names the line it is on.
import { readFileSync } from 'node:fs'
import { Composer, isAlias, isMap, isNode, isScalar, LineCounter, Parser, visit, YAMLParseError, type CST, type Document, type ToJSOptions } from 'yaml'
import { errorMessage, fileErrorMessage } from './wording.ts'

/** The 1-based line where the node at `path` starts, or where its member `key` is written; undefined where there is none. */
export type LineAt = (path: readonly (string | number)[], key?: string) => number | undefined

/** A value built in code, not read from text: no member has a line. */
export const NO_LINES: LineAt = () => undefined

/** `lineAt` for a parsed document. A node with no place in the text (an alias's target, say) has no line. */
export function lineLocator(document: Document, lineCounter: LineCounter): LineAt {
  return (path, key) => {
    const node = document.getIn(path, true)
    const keyNode = key !== undefined && isMap(node) ? node.items.find((pair) => isScalar(pair.key) && pair.key.value === key)?.key : undefined
    const target = keyNode ?? node
    const offset = isNode(target) ? target.range?.[0] : undefined
    return offset === undefined ? undefined : lineCounter.linePos(offset).line
  }
}

/** Throws an Error saying the file is not what it should be: `source:line: not a KIND: what`. */
export type Refusal = (what: string, path?: readonly (string | number)[], key?: string) => never

/** The refusal of a file of `kind` read from `source`, at the line of the node at `path` (or its member `key`) when known. */
export function refusalOf(kind: string, source: string, lineAt: LineAt): Refusal {
  return (what, path = [], key) => {
    const line = lineAt(path, key)
    throw new Error(`${line === undefined ? source : `${source}:${line}`}: not a ${kind}: ${what}`)
  }
}

export interface UnknownMembers {
  /** The first unknown member, to name its line. */
  first: string
  /** `has unknown members x, y (it may have a, b)`. */
  text: string
}

/** The members of `record` besides `members`, if any. */
export function unknownMembers(record: Record<string, unknown>, members: readonly string[]): UnknownMembers | undefined {
  const unknown = Object.keys(record).filter((key) => !members.includes(key))
  return unknown.length === 0 ? undefined : { first: unknown[0]!, text: `has unknown members ${unknown.join(', ')} (it may have ${members.join(', ')})` }
}

/**
 * The text of a file the suite is given, or an Error saying which file of what kind could not be read,
 * or at which line it is not UTF-8.
 */
export function readGivenFile(path: string, kind: string): string {
  let bytes: Uint8Array
  try {
    bytes = readFileSync(path)
  } catch (error) {
    throw new Error(`cannot read the ${kind} ${path}: ${fileErrorMessage(error, path)}`)
  }
  return utf8Text(bytes, path)
}

// A byte order mark is kept, as the parser expects to meet one.
const UTF8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true })

/**
 * `bytes` as UTF-8, or an Error naming the first line that is not: decoded leniently, its bytes would
 * become U+FFFD, a text the file does not hold.
 */
function utf8Text(bytes: Uint8Array, source: string): string {
  try {
    return UTF8.decode(bytes)
  } catch {
    throw new Error(`${located(source, firstIllFormedLine(bytes))}: not UTF-8: the line holds bytes that encode no character`)
  }
}

/** The 1-based line of the first byte sequence that is not UTF-8; a line break (0A) is never inside a character. */
function firstIllFormedLine(bytes: Uint8Array): number {
  let line = 1
  for (let start = 0; start < bytes.length; line++) {
    const end = bytes.indexOf(0x0a, start)
    const stop = end === -1 ? bytes.length : end
    try {
      UTF8.decode(bytes.subarray(start, stop))
    } catch {
      break
    }
    start = stop + 1
  }
  return line
}

export interface YamlText {
  value: unknown
  lineAt: LineAt
}

/** The Error for text that is not YAML: `source[:line]: not YAML: what`. */
function notYaml(source: string, what: string, line?: number): Error {
  return new Error(`${located(source, line)}: not YAML: ${what}`)
}

/** The Error for text whose values are nested deeper than this reader takes, or than the parser's stack reaches. */
function tooDeep(source: string, why: string): Error {
  return new Error(`${source}: its values are nested too deeply to read (${why})`)
}

/**
 * The most levels of collections nested in one another that a file may hold; the files of the suite
 * hold at most 15. The composer recurses once per level and its stack ran out at about 900, and a
 * second such file in one process then ended it (V8 could not compile a regular expression).
 */
const MOST_NESTING = 256

/** How deep the collections of the parsed text nest, walked with a stack of its own (no recursion). */
function nestingDepth(tokens: readonly CST.Token[]): number {
  let most = 0
  const stack: [CST.Token | undefined, number][] = tokens.map(token => [token, 0])
  for (let next = stack.pop(); next !== undefined; next = stack.pop()) {
    const [token, depth] = next
    if (token === undefined) continue
    if (token.type === 'document') stack.push([token.value, depth])
    if (token.type !== 'block-map' && token.type !== 'block-seq' && token.type !== 'flow-collection') continue
    most = Math.max(most, depth + 1)
    for (const item of token.items) stack.push(['key' in item ? item.key ?? undefined : undefined, depth + 1], [item.value, depth + 1])
  }
  return most
}

/** The text's one document, composed from its tokens as the yaml package's parseDocument composes it. */
function composedDocument(tokens: readonly CST.Token[], length: number): Document {
  let document: Document | undefined
  for (const composed of new Composer({ schema: 'core' }).compose(tokens, true, length)) {
    if (document !== undefined) {
      document.errors.push(new YAMLParseError([composed.range[0], composed.range[1]], 'MULTIPLE_DOCS', 'Source contains multiple documents'))
      break
    }
    document = composed
  }
  return document!
}

/** `source:line`, or `source` where there is no line. */
function located(source: string, line: number | undefined): string {
  return line === undefined ? source : `${source}:${line}`
}

/**
 * The first alias whose anchor is not set before it, as a refusal with its line: the parser names
 * only the anchor. It is what is left when an entry that held the anchor was deleted. One walk in
 * document order, which is the order anchors must come in.
 */
function unresolvedAlias(document: Document, lineCounter: LineCounter, source: string): Error | undefined {
  const anchors = new Set<string>()
  let found: Error | undefined
  visit(document, (_, node) => {
    if (isAlias(node)) {
      if (anchors.has(node.source)) return undefined
      found = notYaml(source, `the alias *${node.source} refers to no anchor &${node.source} before it `
        + `(the entry that held \`&${node.source} …\` may have been deleted: give the first entry that refers to it the anchor and the text, \`&${node.source} …\`)`, lineAtOffset(lineCounter, node.range?.[0]))
      return visit.BREAK
    }
    if (isNode(node) && node.anchor !== undefined) anchors.add(node.anchor)
    return undefined
  })
  return found
}

/** The 1-based line at `offset`, if there is one. */
function lineAtOffset(lineCounter: LineCounter, offset: number | undefined): number | undefined {
  return offset === undefined ? undefined : lineCounter.linePos(offset).line
}

/**
 * The first node with an explicit tag (`!!set`, `!!timestamp`, `!!binary`, `!!int`, `!local`), as a
 * refusal with its line. A tag makes a value JSON cannot carry (a Set, a Date, a Buffer, which one
 * adapter gets as is and another over the protocol as `{}`), rounds an integer silently, or is
 * dropped; a vector file writes such values as tagged values (`$dsh`, vectors/README.md).
 */
function explicitTag(document: Document, lineCounter: LineCounter, source: string): Error | undefined {
  let found: Error | undefined
  visit(document, (_, node) => {
    if (!isNode(node) || node.tag === undefined) return undefined
    const tag = node.tag.replace(/^tag:yaml\.org,2002:/, '!!')
    found = new Error(`${located(source, lineAtOffset(lineCounter, node.range?.[0]))}: the YAML tag ${tag} is not taken: the file holds JSON values only (a vector file writes others as tagged values, {$dsh: …})`)
    return visit.BREAK
  })
  return found
}

/**
 * The value of YAML (or JSON) text and the lines of its nodes; throws an Error naming `source` when the
 * text is not YAML, draws a warning from the parser, or holds a tag. The core schema, whatever a
 * `%YAML 1.1` directive says: under YAML 1.1's, `2001-12-14` would be a Date and `yes` true.
 */
export function parseYamlText(text: string, source: string, options?: ToJSOptions): YamlText {
  const lineCounter = new LineCounter()
  let tokens: CST.Token[]
  try {
    tokens = [...new Parser(lineCounter.addNewLine).parse(text)]
  } catch (error) {
    throw notYaml(source, errorMessage(error))
  }
  // Before the composer, which recurses once per level.
  const depth = nestingDepth(tokens)
  if (depth > MOST_NESTING) throw tooDeep(source, `${depth} levels, more than the ${MOST_NESTING} this reader takes`)
  let document: Document
  try {
    document = composedDocument(tokens, text.length)
  } catch (error) {
    throw notYaml(source, errorMessage(error))
  }
  // In one line, at the line of the fault: the parser's own message spreads over several. A warning
  // (an unknown tag or directive) is a fault too: the parser passes over what it warns of.
  const fault = document.errors[0] ?? document.warnings[0]
  // The parser's stack ran out (values nested too deeply), which it reports as an error of the text.
  if (fault?.code === 'RESOURCE_EXHAUSTION') throw tooDeep(source, fault.message)
  if (fault !== undefined) throw notYaml(source, fault.message, lineAtOffset(lineCounter, fault.pos[0]))
  const refused = unresolvedAlias(document, lineCounter, source) ?? explicitTag(document, lineCounter, source)
  if (refused !== undefined) throw refused
  try {
    return { value: document.toJS(options), lineAt: lineLocator(document, lineCounter) }
  } catch (error) {
    throw notYaml(source, errorMessage(error))
  }
}
