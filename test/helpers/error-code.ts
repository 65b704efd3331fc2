import { AppError } from '../../src/domain/errors.js';

/** The AppError code a domain call refuses with, or 'no error'; anything that is not an AppError is rethrown. */
export async function errorCodeOf(promise: Promise<unknown>): Promise<string> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof AppError) return error.code;
    throw error;
  }
  return 'no error';
}
