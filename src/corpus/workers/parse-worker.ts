/**
 * Entry of a parsing worker thread (see `parsePagesStream`): parses each batch of pages it is
 * sent and posts the results back (see `serveParseBatches`). Not meant to be imported.
 */
import { serveParseBatches } from './parse-serve.ts';

serveParseBatches();
