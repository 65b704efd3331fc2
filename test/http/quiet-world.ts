/**
 * Load shedding off for suites that are not about it: on a shared 2-core machine running many suites at once, the
 * event loop can lag past the 1 s threshold and a request would get an honest but unrelated 503.
 */
export const NO_LOAD_SHEDDING = { LOAD_SHED_EVENT_LOOP_DELAY_MS: '0' };
