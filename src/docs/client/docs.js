// The API reference page: Swagger UI rendering the served OpenAPI document. Every request it makes
// goes to this origin: the document, and "Try it out" (GET only). The validator badge, which would
// send the document to validator.swagger.io, is off.
/* global SwaggerUIBundle */
SwaggerUIBundle({
  url: new URL('openapi.json', document.baseURI).href,
  dom_id: '#reference',
  layout: 'BaseLayout',
  deepLinking: true,
  docExpansion: 'list',
  defaultModelsExpandDepth: 0,
  displayRequestDuration: true,
  supportedSubmitMethods: ['get'],
  validatorUrl: null,
  // ?url= and ?configUrl= would let a link load another host's document into this page.
  queryConfigEnabled: false,
});
