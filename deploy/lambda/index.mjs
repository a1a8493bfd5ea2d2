// The function's handler (index.handler): the package's Lambda entry, as is.
export { handler } from 'product-discovery-api/lambda';
