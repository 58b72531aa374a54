// Extracts the JSON examples fenced in the spec's Markdown chapters. A fence whose info string is
// `json example=<schema>[#fragment]` holds JSON that must validate against
// schemas/<schema>.schema.json (at the fragment, when given); `json invalid-example=<schema>[#fragment]`
// holds JSON that must fail it. Other fences are ignored.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'

export interface SpecExample {
  /** Spec file name, e.g. `05-surface.md`. */
  file: string
  /** 1-based line of the opening fence. */
  line: number
  /** Whether the JSON must validate (`example`) or must fail (`invalid-example`). */
  expect: 'valid' | 'invalid'
  /** Schema basename: `event` stands for schemas/event.schema.json. */
  schema: string
  /** JSON pointer fragment including its `#`, e.g. `#/$defs/UserMessage`, or '' for the root. */
  fragment: string
  /** The fenced text. */
  text: string
}

interface OpenFence {
  marker: string
  line: number
  info: string
  body: string[]
}

const FENCE = /^\s*(`{3,}|~{3,})(.*)$/
const EXAMPLE_ATTRIBUTE = /^(example|invalid-example)=([a-z0-9-]+)(#\S*)?$/

/** The example attribute of an info string, or undefined when the fence is not a JSON example. */
function parseInfo(info: string): Pick<SpecExample, 'expect' | 'schema' | 'fragment'> | undefined {
  const [language, ...attributes] = info.trim().split(/\s+/)
  if (language !== 'json') return undefined
  for (const attribute of attributes) {
    const match = EXAMPLE_ATTRIBUTE.exec(attribute)
    if (match) {
      return {
        expect: match[1] === 'example' ? 'valid' : 'invalid',
        schema: match[2] as string,
        fragment: match[3] ?? '',
      }
    }
  }
  return undefined
}

/** Whether `line` closes a fence opened with `marker` (same character, at least as long, no info). */
function closes(line: string, marker: string): boolean {
  const match = FENCE.exec(line)
  return match !== null && match[1]?.[0] === marker[0] && (match[1]?.length ?? 0) >= marker.length
    && (match[2] ?? '').trim() === ''
}

export function extractExamples(markdown: string, file: string): SpecExample[] {
  const examples: SpecExample[] = []
  let open: OpenFence | undefined
  markdown.split('\n').forEach((line, index) => {
    if (open === undefined) {
      const match = FENCE.exec(line)
      if (match) open = { marker: match[1] as string, line: index + 1, info: match[2] ?? '', body: [] }
      return
    }
    if (!closes(line, open.marker)) {
      open.body.push(line)
      return
    }
    const example = parseInfo(open.info)
    if (example) examples.push({ file, line: open.line, ...example, text: open.body.join('\n') })
    open = undefined
  })
  return examples
}

/** Every JSON example of every `*.md` file directly in `specDir`, in file-name order. */
export function readSpecExamples(specDir: string): SpecExample[] {
  return readdirSync(specDir)
    .filter((name) => name.endsWith('.md'))
    .sort()
    .flatMap((name) => extractExamples(readFileSync(join(specDir, name), 'utf8'), name))
}
