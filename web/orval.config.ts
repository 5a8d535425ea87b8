import { defineConfig } from 'orval';

// Generates the typed API client (TanStack Query hooks over fetch) from the server's OpenAPI document.
// Output lives in src/api/gen and is never edited by hand: run `npm run generate` after the document changes.
export default defineConfig({
  compass: {
    input: {
      target: '../openapi/openapi.json',
    },
    output: {
      mode: 'tags-split',
      target: 'src/api/gen',
      schemas: 'src/api/gen/model',
      client: 'react-query',
      httpClient: 'fetch',
      clean: true,
      override: {
        mutator: {
          path: 'src/lib/api-client.ts',
          name: 'customFetch',
        },
        fetch: {
          // The mutator returns the parsed success body (it throws ApiError otherwise),
          // so hooks expose the schema types directly instead of {data, status, headers}.
          includeHttpResponseReturnType: false,
        },
        query: {
          signal: true,
        },
      },
    },
  },
});
