/**
 * The two backends. A file of its own, so the migrations and the hot writes can name it without importing the database.
 */
export type Dialect = 'sqlite' | 'postgres';
