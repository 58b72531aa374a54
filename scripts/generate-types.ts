// Compiles every schemas/*.schema.json into generated/types/<name>.ts (plus index.ts) with
// json-schema-to-typescript, removing anything else in generated/types/. Run with tsx; `--check`
// regenerates in memory and reports files that differ from what is on disk, without writing, and any
// file under generated/ that no generator writes (scripts/generated-files.ts).
//
// Every $ref is replaced by the name of the type it points to (json2ts's `tsType`) and types from
// other schema files are imported, so each type is declared exactly once across the folder. Each
// $def is compiled on its own under its key; a root that is more than a `#/$defs/X` ref is compiled
// under its title in PascalCase.
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { compile, type JSONSchema } from 'json-schema-to-typescript'
import { filesUnder, GENERATED_DIR, isNeverPacked, TYPES_DIR, VECTOR_BUNDLE_FILE } from './generated-files.ts'

type Json = null | boolean | number | string | Json[] | { [key: string]: Json }
type JsonObject = { [key: string]: Json }

const projectRoot = fileURLToPath(new URL('..', import.meta.url))
const schemaDir = join(projectRoot, 'schemas')
const outDir = join(projectRoot, TYPES_DIR)
const SCHEMA_SUFFIX = '.schema.json'

interface SchemaFile {
  /** Basename without `.schema.json`, e.g. `surface-op`. */
  name: string
  fileName: string
  schema: JsonObject
}

interface TypeSource {
  /** Output module name (the schema basename). */
  module: string
  source: string
}

const isObject = (value: Json | undefined): value is JsonObject =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

function readSchemas(): SchemaFile[] {
  return readdirSync(schemaDir)
    .filter((fileName) => fileName.endsWith(SCHEMA_SUFFIX))
    .sort()
    .map((fileName) => ({
      name: fileName.slice(0, -SCHEMA_SUFFIX.length),
      fileName,
      schema: JSON.parse(readFileSync(join(schemaDir, fileName), 'utf8')) as JsonObject,
    }))
}

/** The local definition a root `$ref` names, or undefined when the root is not a bare local ref. */
function rootDefName(schema: JsonObject): string | undefined {
  const ref = schema['$ref']
  return typeof ref === 'string' && ref.startsWith('#/$defs/') ? ref.slice('#/$defs/'.length) : undefined
}

/** Splits `other.schema.json#/$defs/Name` (or `#/$defs/Name`) into the schema module and type name. */
function parseRef(ref: string, currentModule: string, fileName: string): { module: string; typeName: string } {
  const match = /^([a-z0-9-]+\.schema\.json)?#\/\$defs\/([A-Za-z0-9_]+)$/.exec(ref)
  if (!match) throw new Error(`${fileName}: unsupported $ref "${ref}" (use [file.schema.json]#/$defs/Name)`)
  const target = match[1] === undefined ? currentModule : match[1].slice(0, -SCHEMA_SUFFIX.length)
  return { module: target, typeName: match[2] as string }
}

/** Replaces every $ref by a tsType naming its target, collecting the types imported from other modules. */
function replaceRefs(value: Json, file: SchemaFile, imports: Map<string, Set<string>>): Json {
  if (Array.isArray(value)) return value.map((item) => replaceRefs(item, file, imports))
  if (!isObject(value)) return value
  const result: JsonObject = {}
  for (const [key, child] of Object.entries(value)) {
    if (key === '$ref' && typeof child === 'string') {
      const { module, typeName } = parseRef(child, file.name, file.fileName)
      if (module !== file.name) {
        const names = imports.get(module) ?? new Set<string>()
        imports.set(module, names.add(typeName))
      }
      result['tsType'] = typeName
    } else {
      result[key] = replaceRefs(child, file, imports)
    }
  }
  return result
}

/**
 * The named schemas of one file, each compiled on its own: every $def, plus the root when the root
 * is a schema of its own rather than a bare `#/$defs/X` ref (that X is already a definition).
 */
function namedSchemas(file: SchemaFile, imports: Map<string, Set<string>>): [string, JsonObject][] {
  const { $schema: _schema, $id: _id, $comment: _comment, $defs: defs, title, ...root } = file.schema
  const named: [string, JsonObject][] = []
  if (root['$ref'] === undefined && Object.keys(root).some((key) => key !== 'description')) {
    if (typeof title !== 'string') throw new Error(`${file.fileName}: a root schema needs a title`)
    named.push([title.replace(/[^A-Za-z0-9]+(.)?/g, (_, next: string | undefined) => (next ?? '').toUpperCase()), root])
  } else if (root['$ref'] !== undefined && rootDefName(file.schema) === undefined) {
    throw new Error(`${file.fileName}: a root $ref must name a local definition`)
  }
  for (const [name, def] of Object.entries(isObject(defs) ? defs : {})) {
    if (!isObject(def)) throw new Error(`${file.fileName}: $defs/${name} is not a schema object`)
    named.push([name, def])
  }
  return named.map(([name, schema]) => [name, replaceRefs(schema, file, imports) as JsonObject])
}

function importLines(imports: Map<string, Set<string>>): string {
  return [...imports.keys()]
    .sort()
    .map((module) => `import type { ${[...(imports.get(module) ?? [])].sort().join(', ')} } from './${module}.js'\n`)
    .join('')
}

function header(file: SchemaFile): string {
  return `// Generated from schemas/${file.fileName} by scripts/generate-types.ts — do not edit.\n`
}

async function compileNamed(name: string, schema: JsonObject): Promise<string> {
  return compile({ ...schema, title: name } as JSONSchema, name, {
    bannerComment: '',
    additionalProperties: false,
    declareExternallyReferenced: true,
    strictIndexSignatures: false,
    format: true,
    $refOptions: { resolve: { file: false, http: false } },
  })
}

/** The imports the body names: a type referenced only where TypeScript has no counterpart (under `not`) is not. */
function usedImports(imports: Map<string, Set<string>>, body: string): Map<string, Set<string>> {
  const used = [...imports].map(([module, names]) => [module, new Set([...names].filter((name) => new RegExp(`\\b${name}\\b`).test(body)))] as const)
  return new Map(used.filter(([, names]) => names.size > 0))
}

async function generateModule(file: SchemaFile): Promise<TypeSource> {
  const imports = new Map<string, Set<string>>()
  const declarations: string[] = []
  for (const [name, schema] of namedSchemas(file, imports)) declarations.push(await compileNamed(name, schema))
  const body = declarations.map((declaration) => declaration.trim()).join('\n\n')
  const imported = importLines(usedImports(imports, body))
  return { module: file.name, source: `${header(file)}${imported === '' ? '' : `\n${imported}`}\n${body}\n` }
}

/** Names exported by a generated module (`export type X` / `export interface X`). */
function exportedNames(source: string): string[] {
  return [...source.matchAll(/^export (?:type|interface) ([A-Za-z0-9_]+)/gm)].map((match) => match[1] as string)
}

function assertUniqueNames(modules: TypeSource[]): void {
  const owner = new Map<string, string>()
  const clashes: string[] = []
  for (const { module, source } of modules) {
    for (const name of exportedNames(source)) {
      const first = owner.get(name)
      if (first !== undefined) clashes.push(`${name} (${first}, ${module})`)
      else owner.set(name, module)
    }
  }
  if (clashes.length > 0) throw new Error(`type names declared by more than one schema: ${clashes.join('; ')}`)
}

function indexModule(modules: TypeSource[]): string {
  const lines = modules.map(({ module }) => `export type * from './${module}.js'\n`).join('')
  return `// Generated from schemas/*.schema.json by scripts/generate-types.ts — do not edit.\n\n${lines}`
}

/** Every output file, keyed by its name inside generated/types/. */
async function generateAll(): Promise<Map<string, string>> {
  const modules: TypeSource[] = []
  for (const file of readSchemas()) modules.push(await generateModule(file))
  assertUniqueNames(modules)
  const files = new Map<string, string>()
  for (const { module, source } of modules) files.set(`${module}.ts`, source)
  files.set('index.ts', indexModule(modules))
  return files
}

/** Files anywhere under generated/ that no generator writes (the types below, or the vector bundle) and that npm would pack. */
function strayFiles(types: Map<string, string>): string[] {
  const written = new Set([VECTOR_BUNDLE_FILE, ...[...types.keys()].map((name) => `${TYPES_DIR}/${name}`)])
  return filesUnder(projectRoot, GENERATED_DIR).filter((path) => !written.has(path) && !isNeverPacked(path))
}

function staleReport(expected: Map<string, string>): string[] {
  const problems: string[] = []
  for (const [name, content] of expected) {
    const path = join(outDir, name)
    if (!existsSync(path)) problems.push(`missing: ${TYPES_DIR}/${name}`)
    else if (readFileSync(path, 'utf8') !== content) problems.push(`stale: ${TYPES_DIR}/${name}`)
  }
  for (const path of strayFiles(expected)) {
    // `npm run generate` removes the strays of its own folder only.
    problems.push(path.startsWith(`${TYPES_DIR}/`) ? `extra: ${path}` : `extra: ${path} (no generator writes it: delete it)`)
  }
  return problems
}

function writeAll(files: Map<string, string>): void {
  mkdirSync(outDir, { recursive: true })
  for (const entry of readdirSync(outDir)) {
    if (!files.has(entry)) rmSync(join(outDir, entry), { recursive: true })
  }
  for (const [name, content] of files) writeFileSync(join(outDir, name), content)
}

async function main(): Promise<void> {
  const files = await generateAll()
  if (!process.argv.includes('--check')) {
    writeAll(files)
    console.log(`wrote ${files.size} files to generated/types/`)
    return
  }
  const problems = staleReport(files)
  if (problems.length === 0) {
    console.log('generated/types/ is up to date, and generated/ holds only what the generators write')
    return
  }
  for (const problem of problems) console.error(problem)
  console.error('run `npm run generate` to refresh generated/types/')
  process.exitCode = 1
}

await main()
