/**
 * @module The product as schema.org JSON-LD: a `SoftwareApplication` whose url is the website, whose
 * other public resources are `sameAs`, and whose start options are `potentialAction`s. Served at
 * /api/v1/product to an Accept that prefers `application/ld+json`, and embedded in the docs page.
 */
import type { Product } from '../facts/schema.ts';
import type { SoftwareApplicationLd } from './schemas.ts';

/**
 * What the product is, in schema.org's words. The one product-specific choice here: a hosted
 * business application used in a browser (schema.org's applicationCategory and operatingSystem).
 */
function productKind(_facts: Product): Pick<SoftwareApplicationLd, 'applicationCategory' | 'operatingSystem'> {
  return { applicationCategory: 'BusinessApplication', operatingSystem: 'Web' };
}

export function buildJsonLd({ facts }: { facts: Product }): SoftwareApplicationLd {
  const website = facts.resources.find((resource) => resource.kind === 'website');
  const others = facts.resources.filter((resource) => resource !== website).map(({ url }) => url);
  return {
    '@context': 'https://schema.org',
    '@type': 'SoftwareApplication',
    name: facts.product.name,
    description: facts.product.summary,
    ...(website ? { url: website.url } : {}),
    ...(facts.product.logo ? { logo: facts.product.logo.url } : {}),
    ...productKind(facts),
    dateModified: facts.product.reviewedOn,
    ...(others.length > 0 ? { sameAs: [...new Set(others)] } : {}),
    potentialAction: facts.startOptions.map(({ title, description, url }) => ({
      '@type': 'Action',
      name: title,
      description,
      target: url,
    })),
  };
}

/**
 * The object as the body of an HTML `<script type="application/ld+json">` data block: `<` is
 * escaped so that no text in the facts can close the element (HTML, "Restrictions for contents of
 * script elements"); JSON reads `\u003c` as the same character.
 */
export const jsonLdScriptText = (value: unknown) => JSON.stringify(value).replace(/</g, '\\u003c');
