/**
 * The GCS test server (gcs/test-server.ts) in a process of its own, for
 * bench/upload: it keeps every object in memory and hashes every byte, and
 * that memory and CPU must not be counted against the uploader being measured.
 *
 * Prints `gcs test server at URL` on stdout once it listens; stops on SIGTERM.
 */
import { startGcsTestServer } from '../gcs/test-server.js';

const server = await startGcsTestServer();
process.stdout.write(`gcs test server at ${server.endpoint}\n`);
process.once('SIGTERM', () => void server.close().then(() => process.exit(0)));
