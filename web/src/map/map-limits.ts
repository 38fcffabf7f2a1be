// How much the map shows, in a module of its own (no DOM, no API): bench/web.ts measures the same.

/** The incidents the map shows: the five pages of p2000Dossiers in IncidentsQuery (queries.ts). */
export const MAP_INCIDENTS = 500;
