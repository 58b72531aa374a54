// A small XML 1.0 well-formedness checker for the JUnit tests: tags nest and match, attributes are
// quoted and unique, text and attribute values hold only legal characters and known entities.
// It returns the element tree; it does not handle DTDs, CDATA or processing instructions beyond the
// XML declaration (the JUnit writer uses none of them).

export interface XmlElement {
  name: string
  attributes: Record<string, string>
  children: XmlElement[]
  text: string
}

const ILLEGAL_CHARACTER = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/u
const BAD_AMPERSAND = /&(?!(?:amp|lt|gt|quot|apos|#\d+|#x[0-9a-fA-F]+);)/
const TAG = /<(\/?)([A-Za-z_][\w.-]*)((?:\s+[A-Za-z_][\w.-]*\s*=\s*"[^"]*")*)\s*(\/?)>/y
const ATTRIBUTE = /([A-Za-z_][\w.-]*)\s*=\s*"([^"]*)"/g

function checkText(text: string, where: string): void {
  if (ILLEGAL_CHARACTER.test(text)) throw new Error(`illegal character in ${where}`)
  if (BAD_AMPERSAND.test(text)) throw new Error(`bare & in ${where}`)
  if (text.includes('<')) throw new Error(`bare < in ${where}`)
}

export function parseXml(xml: string): XmlElement {
  const body = xml.replace(/^<\?xml [^?]*\?>\s*/, '')
  const root: XmlElement = { name: '#document', attributes: {}, children: [], text: '' }
  const stack = [root]
  let index = 0
  while (index < body.length) {
    const next = body.indexOf('<', index)
    const text = body.slice(index, next === -1 ? body.length : next)
    checkText(text, `text of <${stack.at(-1)!.name}>`)
    stack.at(-1)!.text += text
    if (next === -1) break
    TAG.lastIndex = next
    const match = TAG.exec(body)
    if (match === null) throw new Error(`malformed tag at ${next}: ${body.slice(next, next + 60)}`)
    const [whole, closing, name, attributeText, selfClosing] = match
    index = next + whole.length
    if (closing) {
      const open = stack.pop()
      if (open?.name !== name || stack.length === 0) throw new Error(`</${name}> closes <${open?.name}>`)
      continue
    }
    const attributes: Record<string, string> = {}
    for (const [, key, value] of attributeText!.matchAll(ATTRIBUTE)) {
      if (key! in attributes) throw new Error(`attribute ${key} twice on <${name}>`)
      checkText(value!, `attribute ${key} of <${name}>`)
      attributes[key!] = value!
    }
    const element: XmlElement = { name: name!, attributes, children: [], text: '' }
    stack.at(-1)!.children.push(element)
    if (!selfClosing) stack.push(element)
  }
  if (stack.length !== 1) throw new Error(`<${stack.at(-1)!.name}> is never closed`)
  if (root.children.length !== 1 || root.text.trim() !== '') throw new Error('a document has exactly one root element')
  return root.children[0]!
}

export function descendants(element: XmlElement, name: string): XmlElement[] {
  return element.children.flatMap((child) => [...(child.name === name ? [child] : []), ...descendants(child, name)])
}

/** Undoes the five entities and numeric references. */
export function unescapeXml(text: string): string {
  return text.replace(/&(#x[0-9a-fA-F]+|#\d+|amp|lt|gt|quot|apos);/g, (_, entity: string) => {
    if (entity.startsWith('#x')) return String.fromCodePoint(Number.parseInt(entity.slice(2), 16))
    if (entity.startsWith('#')) return String.fromCodePoint(Number(entity.slice(1)))
    return ({ amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" } as Record<string, string>)[entity]!
  })
}
