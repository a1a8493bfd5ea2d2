/** Rewrites the committed v1 contract snapshot: `npm run contract:snapshot`, only for additive changes. */
import { writeFile } from 'node:fs/promises';
import { currentDocument, SNAPSHOT } from '../support/contract.ts';

await writeFile(SNAPSHOT, `${JSON.stringify(await currentDocument(), null, 2)}\n`);
console.log(`wrote ${SNAPSHOT}`);
