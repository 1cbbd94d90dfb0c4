import { XMLParser } from 'fast-xml-parser';

/**
 * Everything here reads XML a device on the LAN sent, so it is hostile input. A real box never
 * sends a DTD: a document that declares one (and with it entities that could expand a small
 * listing into hundreds of millions of characters) is refused before parsing. The predefined XML
 * entities (`&amp;`, `&lt;`, …), the common HTML ones and numeric references each expand to at most
 * two characters, so they are decoded without a count limit (a SOAP Browse result carries thousands
 * of them); the size of the whole document is bounded by the response limit of the reader.
 */
export class BoxXmlError extends Error {}

/** Longest text kept from any one element or attribute (titles, ids, descriptions). */
export const MAX_XML_TEXT = 4096;

const DTD = /<!(?:DOCTYPE|ENTITY)/i;

/** Throws BoxXmlError when the document carries a DTD or entity declarations. */
export function refuseDtd(xml: string, what: string): void {
  if (DTD.test(xml)) throw new BoxXmlError(`${what}: XML with a DTD or entity declarations is refused (a real box sends none)`);
}

/**
 * The XML parser the box code shares. Everything stays a string (ids such as `585587764` must never
 * become numbers), namespaces are stripped (`dc:title` → `title`). Entity declarations are refused
 * by `parseBoxXml` before this parser sees the text; as a second line the parser itself allows no
 * declared entity to expand beyond a few hundred characters in total.
 */
export function createBoxXmlParser(arrayTags: readonly string[] = []): XMLParser {
  const arrays = new Set(arrayTags);
  return new XMLParser({
    ignoreAttributes: false,
    attributeNamePrefix: '@_',
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    trimValues: true,
    processEntities: {
      enabled: true,
      // Declared (DTD) entities only: at most one, tiny, expanded a handful of times.
      maxEntityCount: 1,
      maxEntitySize: 64,
      maxTotalExpansions: 16,
      maxExpandedLength: 1024,
      appliesTo: 'external',
    } as NonNullable<ConstructorParameters<typeof XMLParser>[0]>['processEntities'],
    htmlEntities: true,
    isArray: (name) => arrays.has(name),
  });
}

/** Parses a document from a device: refuses a DTD, then parses with `parser`. */
export function parseBoxXml(parser: XMLParser, xml: string, what: string, validate = false): Record<string, unknown> {
  refuseDtd(xml, what);
  return parser.parse(xml, validate) as Record<string, unknown>;
}

/** Text of a node that may be a plain string or an object with `#text` (when it has attributes). */
export function textOf(node: unknown): string {
  if (node === undefined || node === null) return '';
  if (typeof node === 'string') return node;
  if (typeof node === 'number' || typeof node === 'boolean') return String(node);
  if (typeof node === 'object' && '#text' in (node as Record<string, unknown>)) return textOf((node as Record<string, unknown>)['#text']);
  return '';
}

/** Escapes text for an XML element or attribute. */
export function escapeXml(s: string): string {
  return s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&apos;');
}
