/**
 * @module The facts' valibot schemas: the file a product team writes and the Product body served from it,
 * the single source of the runtime check, the TypeScript types, the OpenAPI components and the MCP tools'
 * output schemas. Response objects are open (not strict) so that v1 can grow by adding fields.
 */
import * as v from 'valibot';
import type * as Stated from './types.ts';
import { legacyFlagOf, type LegacyFlag } from './legacy-flag.ts';

export const text = v.pipe(v.string(), v.regex(/\S/, 'must not be empty or blank'));
export const webUrl = v.pipe(v.string(), v.url('must be an absolute URL'), v.regex(/^https?:\/\//, 'must be an http or https URL'));
export const isoDate = v.pipe(v.string(), v.isoDate('must be an ISO 8601 date such as 2026-01-31'));
const httpsUrl = v.pipe(v.string(), v.url('must be an absolute URL'), v.regex(/^https:\/\//, 'must be an https URL'));
const list = <T extends v.GenericSchema>(item: T) => v.pipe(v.array(item), v.minLength(1, 'must list at least one entry'));

export const RESOURCE_KINDS = ['website', 'docs', 'pricing', 'status', 'support', 'terms', 'privacy', 'openapi', 'mcp'] as const;
export const ResourceKind = v.pipe(
  v.picklist(RESOURCE_KINDS, (issue) => `${JSON.stringify(issue.input)} is not a resource kind; use one of: ${RESOURCE_KINDS.join(', ')}`),
  v.description('What the resource is.'),
);

const slug = v.pipe(v.string(), v.regex(/^[a-z0-9]+(?:-[a-z0-9]+)*$/, 'must be a lowercase slug such as read-the-docs'));

export const Resource = v.pipe(
  v.object({
    id: v.optional(
      v.pipe(slug, v.description('A stable identifier, unique among the resources; without one, the resource is known by its `kind`.')),
    ),
    kind: ResourceKind,
    title: text,
    url: webUrl,
    description: text,
  }),
  v.title('Resource'),
  v.description('A canonical public resource of the product.'),
);

const createsGallery = v.pipe(v.boolean(), v.description('Whether taking this option creates a gallery.'));

const startOptionHead = {
  id: v.pipe(slug, v.description('A stable identifier, unique among the start options.')),
  title: text,
  description: text,
  url: webUrl,
};
const startOptionTail = {
  performs: v.optional(
    v.pipe(
      list(slug),
      v.description(
        'The production actions taking this option performs, by their ids in product.actionsNeedingApproval; ' +
          'absent when it performs none (it only reads, shows or explains).',
      ),
    ),
  ),
  requiresHumanApproval: v.pipe(
    v.boolean(),
    v.description(
      'Whether a person must approve this step before an agent takes it. ' +
        'Always true for an option that performs an action of product.actionsNeedingApproval.',
    ),
  ),
};

const startOption = <T extends v.ObjectEntries>(entries: T) =>
  v.pipe(v.object(entries), v.title('StartOption'), v.description('A safe way to start with the product.'));

function startOptionSchema(legacy: LegacyFlag) {
  if (legacy === 'required') return startOption({ ...startOptionHead, createsGallery, ...startOptionTail });
  if (legacy === 'optional') return startOption({ ...startOptionHead, createsGallery: v.optional(createsGallery), ...startOptionTail });
  return startOption({ ...startOptionHead, ...startOptionTail });
}

/** A start option as a facts file gives it: `createsGallery` may be given or left out. */
export const StartOption = startOption({ ...startOptionHead, createsGallery: v.optional(createsGallery), ...startOptionTail });

export const ApprovalAction = v.pipe(
  v.object({
    id: v.pipe(slug, v.description('A stable identifier, unique among these actions; start options name it in `performs`.')),
    action: v.pipe(text, v.description('The action as it reads inside a sentence, in lower case, such as "publishing a notebook".')),
    reason: v.pipe(
      text,
      v.description('Why a person must approve it, as it reads after "because", such as "it makes unpublished work readable by anyone".'),
    ),
  }),
  v.title('ApprovalAction'),
  v.description("A production action that needs a person's approval before anyone takes it, and why."),
);

/** The media types an MCP icon may have in the MCP Registry's server.json (its `Icon.mimeType`). */
const LOGO_MEDIA_TYPES = ['image/png', 'image/jpeg', 'image/jpg', 'image/svg+xml', 'image/webp'] as const;

export const Logo = v.pipe(
  v.object({
    url: v.pipe(
      httpsUrl,
      v.maxLength(255, 'must be at most 255 characters, as the MCP Registry allows'),
      v.description("The https URL of the product's logo image."),
    ),
    mediaType: v.optional(
      v.pipe(
        v.picklist(
          LOGO_MEDIA_TYPES,
          (issue) => `${JSON.stringify(issue.input)} is not an icon media type; use one of: ${LOGO_MEDIA_TYPES.join(', ')}`,
        ),
        v.description("The image's media type, when its URL does not say it."),
      ),
    ),
    sizes: v.optional(
      v.pipe(
        list(v.pipe(v.string(), v.regex(/^(?:\d+x\d+|any)$/, 'must be WIDTHxHEIGHT such as 512x512, or any for a scalable image'))),
        v.description('The sizes the image can be shown at, such as 512x512 (any for a scalable image).'),
      ),
    ),
  }),
  v.description("The product's logo: MCP serverInfo.icons, the server card's and the registry file's icons, JSON-LD logo."),
);

export const Contact = v.pipe(
  v.object({
    url: v.optional(v.pipe(webUrl, v.description("The product's public contact or support page."))),
    email: v.optional(
      v.pipe(
        v.string(),
        v.email('must be an e-mail address such as support@example.com'),
        v.description("The product's own public contact address, the one place the facts may give an e-mail address."),
      ),
    ),
  }),
  v.description("The product's own public contact: a page, an address, or both. Never a person's private address."),
);

export const ProductFacts = v.pipe(
  v.object({
    name: text,
    summary: text,
    audiences: list(text),
    capabilities: list(text),
    notOffered: v.pipe(list(text), v.description('What the public API deliberately does not do.')),
    neverReturned: v.optional(
      v.pipe(
        list(text),
        v.description('The kinds of private data this service never returns, as plural nouns in the product\'s words, such as "accounts".'),
      ),
    ),
    actionsNeedingApproval: v.optional(
      v.pipe(list(ApprovalAction), v.description("The production actions that need a person's approval, and why.")),
    ),
    privateContract: v.optional(
      v.pipe(
        list(text),
        v.description(
          "What lies outside this public API, under the product's private contract (operations, links, sessions, permission names): " +
            'named so that nobody looks for it here.',
        ),
      ),
    ),
    contact: v.optional(Contact),
    logo: v.optional(Logo),
    reviewedOn: v.pipe(isoDate, v.description('The date the product team last reviewed these facts.')),
  }),
  v.title('ProductFacts'),
  v.description('Reviewed facts about the product.'),
);

function productSchema<T extends v.GenericSchema>(startOption: T) {
  return v.pipe(
    v.object({
      product: ProductFacts,
      resources: list(Resource),
      startOptions: list(startOption),
    }),
    v.title('Product'),
    v.description('Reviewed product facts, canonical public resources and safe start options.'),
  );
}

export const Product = productSchema(StartOption);

/** The facts file as its team writes it: the Product body, plus the `$schema` member editors read (never served). */
function factsFileSchema<T extends v.ObjectEntries>(product: { entries: T }) {
  return v.pipe(
    v.object({
      $schema: v.optional(
        v.pipe(
          v.string(),
          v.description('The JSON Schema an editor checks this file against, such as {base}/schemas/facts.json. Not served.'),
        ),
      ),
      ...product.entries,
    }),
    v.title('FactsFile'),
    v.description('The reviewed facts file: the layout of the GET /api/v1/product body, and nothing else.'),
  );
}

export const FactsFile = factsFileSchema(Product);

/**
 * The shapes a service serves for these facts (the OpenAPI components, the MCP tools' output schemas, the
 * facts file's JSON Schema): the same schemas, with `createsGallery` as these facts use it, so a product
 * without it never shows it. The facts file's schema keeps it optional for the facts that give it.
 */
export function servedSchemas(facts: { startOptions: readonly { createsGallery?: boolean }[] }) {
  const legacy = legacyFlagOf(facts);
  const served = startOptionSchema(legacy);
  const Product = productSchema(served);
  return {
    StartOption: served,
    Product,
    StartOptionList: v.object({ startOptions: v.array(served) }),
    FactsFile: legacy === 'absent' ? factsFileSchema(Product) : FactsFile,
  };
}

export type Product = Stated.Product;
export type ProductFacts = Stated.ProductFacts;
export type Resource = Stated.Resource;
export type StartOption = Stated.StartOption;
export type ApprovalAction = Stated.ApprovalAction;
export type ResourceKind = Stated.ResourceKind;
export type Logo = Stated.Logo;

/** The stated types (types.ts) are exactly what the schemas infer: a compile error here when either changes alone. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
type Holds<T extends true> = T;
// Not exported: a consumer's own compiler options (exactOptionalPropertyTypes) would read it otherwise.
// biome-ignore lint/correctness/noUnusedVariables: a check the compiler makes, used by nothing else
type StatedTypesHold = [
  Holds<Same<Product, v.InferOutput<typeof Product>>>,
  Holds<Same<ProductFacts, v.InferOutput<typeof ProductFacts>>>,
  Holds<Same<Resource, v.InferOutput<typeof Resource>>>,
  Holds<Same<StartOption, v.InferOutput<typeof StartOption>>>,
  Holds<Same<ApprovalAction, v.InferOutput<typeof ApprovalAction>>>,
  Holds<Same<ResourceKind, v.InferOutput<typeof ResourceKind>>>,
  Holds<Same<Logo, v.InferOutput<typeof Logo>>>,
  Holds<Same<Stated.Contact, v.InferOutput<typeof Contact>>>,
];
