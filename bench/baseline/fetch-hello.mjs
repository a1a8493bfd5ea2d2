// Cold-start reference for the serverless entries: the smallest fetch-style module.
export default { fetch: () => new Response('hello') };
