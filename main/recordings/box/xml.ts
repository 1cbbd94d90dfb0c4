import { XMLParser } from 'fast-xml-parser';

/**
 * The XML parser the box code shares. Everything stays a string (ids such as `585587764` must never
 * become numbers), namespaces are stripped (`dc:title` → `title`), and the entity-expansion cap is
 * lifted: a SOAP Browse result of a few hundred items carries thousands of escaped entities.
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
      maxTotalExpansions: 10_000_000,
      maxExpandedLength: 256 * 1024 * 1024,
      maxEntityCount: 10_000,
    },
    htmlEntities: true,
    isArray: (name) => arrays.has(name),
  });
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
