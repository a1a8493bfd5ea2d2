/** Rewrites the committed v1 contract snapshots: `npm run contract:snapshot`, only for additive changes. */
import { writeFile } from 'node:fs/promises';
import { ANSWERS_SNAPSHOT, currentAnswers } from '../support/answers.ts';
import { currentDocument, SNAPSHOT } from '../support/contract.ts';

await writeFile(SNAPSHOT, `${JSON.stringify(await currentDocument(), null, 2)}\n`);
console.log(`wrote ${SNAPSHOT}`);
await writeFile(ANSWERS_SNAPSHOT, `${JSON.stringify(await currentAnswers(), null, 2)}\n`);
console.log(`wrote ${ANSWERS_SNAPSHOT.pathname}`);
