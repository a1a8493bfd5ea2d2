/**
 * @module The facts' types as the package states them to its users, written out (a published type may
 * not be inferred from a schema: JSR's "no slow types"). Object types, not interfaces, so that they
 * are records of their members as the inferred ones were. facts/schema.ts checks that its schemas infer
 * exactly these, so the schemas stay the one source and these cannot drift from them.
 */

/** What a resource is. */
export type ResourceKind = 'website' | 'docs' | 'pricing' | 'status' | 'support' | 'terms' | 'privacy' | 'openapi' | 'mcp';

/** A canonical public resource of the product. */
export type Resource = {
  id?: string;
  kind: ResourceKind;
  title: string;
  url: string;
  description: string;
};

/** A production action that needs a person's approval before anyone takes it, and why. */
export type ApprovalAction = {
  id: string;
  action: string;
  reason: string;
};

/** The product's logo: MCP serverInfo.icons, the server card's and the registry file's icons, JSON-LD logo. */
export type Logo = {
  url: string;
  mediaType?: 'image/png' | 'image/jpeg' | 'image/jpg' | 'image/svg+xml' | 'image/webp';
  sizes?: string[];
};

/** The product's own public contact: a page, an address, or both. */
export type Contact = {
  url?: string;
  email?: string;
};

/** Reviewed facts about the product. */
export type ProductFacts = {
  name: string;
  summary: string;
  audiences: string[];
  capabilities: string[];
  notOffered: string[];
  neverReturned?: string[];
  actionsNeedingApproval?: ApprovalAction[];
  privateContract?: string[];
  contact?: Contact;
  logo?: Logo;
  reviewedOn: string;
};

/** A safe way to start with the product. */
export type StartOption = {
  id: string;
  title: string;
  description: string;
  url: string;
  createsGallery?: boolean;
  performs?: string[];
  requiresHumanApproval: boolean;
};

/** Reviewed product facts, canonical public resources and safe start options: the GET /api/v1/product body. */
export type Product = {
  product: ProductFacts;
  resources: Resource[];
  startOptions: StartOption[];
};
