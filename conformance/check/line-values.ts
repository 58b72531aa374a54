// How many arrays and objects a record line builds when it is parsed, counted from its bytes without
// parsing it: a parser builds one for every `[` and `{` outside a string. A line of 64 MiB nested as
// deep as it goes built 33M arrays and took check 3.3 GB (about 100 bytes each), so check bounds the
// values of one line as it bounds its bytes, by a share of --max-line-bytes.

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACKET = 0x5b
const OPEN_BRACE = 0x7b

/** Each line may build one array or object per this many bytes of --max-line-bytes. */
export const BYTES_PER_VALUE = 64

/** At least this many, whatever --max-line-bytes says: a small limit still takes any ordinary line. */
export const FEWEST_MOST_VALUES = 65_536

/** The most arrays and objects check builds for one line (1,048,576 under the default limit of 64 MiB). */
export function mostLineValues(maxLineBytes: number): number {
  return Math.max(FEWEST_MOST_VALUES, Math.floor(maxLineBytes / BYTES_PER_VALUE))
}

/**
 * Whether parsing `bytes` (one line of JSON text, or what passes for it) would build more than `most`
 * arrays and objects. A line of `most` bytes or fewer cannot, and is not scanned. UTF-8 never puts a
 * quote, a backslash or a bracket inside a multi-byte character, so bytes are read one by one.
 */
export function buildsMoreValues(bytes: Uint8Array, most: number): boolean {
  if (bytes.length <= most) return false
  let values = 0
  let inString = false
  for (let at = 0; at < bytes.length; at += 1) {
    const byte = bytes[at]!
    if (inString) {
      if (byte === BACKSLASH) at += 1
      else if (byte === QUOTE) inString = false
    } else if (byte === QUOTE) inString = true
    else if ((byte === OPEN_BRACKET || byte === OPEN_BRACE) && ++values > most) return true
  }
  return false
}
