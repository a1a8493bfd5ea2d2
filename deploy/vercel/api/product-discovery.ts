// The service as one Vercel Function: vercel.json rewrites exactly the paths it serves here, so every
// other path stays the project's own. Configuration (PUBLIC_BASE_URL, the marketplace Redis's KV_REST_API_URL
// and KV_REST_API_TOKEN, ...) comes from the project's environment variables and is checked when the function loads.
export { default } from 'product-discovery-api/vercel';
