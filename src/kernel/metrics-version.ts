/**
 * The version of metrics.json's layout: bumped whenever a field its readers
 * walk (the report, the viewer's listing and curves) changes its place or its
 * meaning. A run's metrics.json records it (`metricsVersion`; files written
 * before it was recorded are version 1), and a reader refuses a later one
 * (TMAS_OUTPUT_FORMAT) rather than read a newer tmas's figures as its own, as
 * the store refuses a later journal version (journal-version.ts).
 */
export const METRICS_VERSION = 1;
